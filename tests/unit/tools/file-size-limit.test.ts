import { promises as fs } from 'node:fs';
import * as path from 'node:path';

import { hasWorkspaceErrorCode } from '../../../src/tools';
import { makeFixture } from './helpers';
import type { Fixture } from './helpers';

// sandbox.max_file_bytes: read_file and str_replace load whole files, so they refuse big ones up front.
const LIMIT = 1024;

let fx: Fixture;
beforeEach(async () => {
  fx = await makeFixture({ allow_host_bash: false, max_file_bytes: LIMIT });
  await fx.workspace.ensureFolders();
});
afterEach(() => fx.cleanup());

async function failure(name: string, args: Record<string, unknown>): Promise<unknown> {
  return fx.call(name, args).then(
    (out) => new Error(`expected ${name} to fail, got ${out}`),
    (err: unknown) => err,
  );
}

const write = (name: string, bytes: number) => fs.writeFile(path.join(fx.workspace.hostWorkspace, name), 'x'.repeat(bytes));

describe('sandbox.max_file_bytes', () => {
  it('read_file reads a file of exactly the limit and refuses one byte more, naming path, size and limit', async () => {
    await write('fits.txt', LIMIT);
    expect(await fx.call('read_file', { path: 'fits.txt' })).toHaveLength(LIMIT);
    await write('big.txt', LIMIT + 1);
    const err = await failure('read_file', { path: 'big.txt' });
    expect(hasWorkspaceErrorCode(err, 'FILE_TOO_LARGE')).toBe(true);
    expect((err as Error).message).toContain(`/mnt/user-data/workspace/big.txt is ${LIMIT + 1} bytes, larger than the ${LIMIT}-byte limit (sandbox.max_file_bytes)`);
    expect((err as Error).message).not.toContain(fx.dataDir);
  });

  it('str_replace refuses a file over the limit and leaves it unchanged', async () => {
    await write('big.txt', LIMIT + 10);
    const err = await failure('str_replace', { path: 'big.txt', old_str: 'x', new_str: 'y', replace_all: true });
    expect(hasWorkspaceErrorCode(err, 'FILE_TOO_LARGE')).toBe(true);
    expect((err as Error).message).toContain('/mnt/user-data/workspace/big.txt');
    expect(await fs.readFile(path.join(fx.workspace.hostWorkspace, 'big.txt'), 'utf8')).toBe('x'.repeat(LIMIT + 10));
    await write('small.txt', 10);
    expect(await fx.call('str_replace', { path: 'small.txt', old_str: 'x', new_str: 'y', replace_all: true })).toBe(
      'OK: replaced 10 occurrences in /mnt/user-data/workspace/small.txt',
    );
  });

  it('still names directories and missing files as before', async () => {
    expect(hasWorkspaceErrorCode(await failure('read_file', { path: '.' }), 'NOT_A_FILE')).toBe(true);
    expect(hasWorkspaceErrorCode(await failure('str_replace', { path: '.', old_str: 'a', new_str: 'b' }), 'NOT_A_FILE')).toBe(true);
    expect(hasWorkspaceErrorCode(await failure('read_file', { path: 'nope.txt' }), 'NOT_FOUND')).toBe(true);
  });
});
