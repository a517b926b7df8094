import { promises as fs } from 'node:fs';
import * as path from 'node:path';

import { ToolMessage } from '@langchain/core/messages';

import { LS_MAX_ENTRIES, hasWorkspaceErrorCode, isWorkspacePathError } from '../../../src/tools';
import { makeFixture } from './helpers';
import type { Fixture } from './helpers';

let fx: Fixture;
beforeEach(async () => {
  fx = await makeFixture({ allow_host_bash: false, max_output_chars: 1000 });
});
afterEach(() => fx.cleanup());

async function failure(name: string, args: Record<string, unknown>): Promise<unknown> {
  return fx.call(name, args).then(
    (out) => new Error(`expected ${name} to fail, got ${out}`),
    (err: unknown) => err,
  );
}

const TEN_LINES = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

describe('write_file', () => {
  it('creates parent folders, overwrites, and appends', async () => {
    expect(await fx.call('write_file', { path: 'a/b/notes.md', content: '# One\n' })).toBe(
      'OK: wrote 6 chars to /mnt/user-data/workspace/a/b/notes.md',
    );
    expect(await fx.call('write_file', { path: 'a/b/notes.md', content: '## Two\n', append: true })).toBe(
      'OK: appended 7 chars to /mnt/user-data/workspace/a/b/notes.md',
    );
    const host = path.join(fx.workspace.hostWorkspace, 'a', 'b', 'notes.md');
    expect(await fs.readFile(host, 'utf8')).toBe('# One\n## Two\n');
    await fx.call('write_file', { path: '/mnt/user-data/workspace/a/b/notes.md', content: 'fresh' });
    expect(await fs.readFile(host, 'utf8')).toBe('fresh');
  });

  it('writes to outputs via a relative path and refuses paths outside the root', async () => {
    await fx.call('write_file', { path: '../outputs/result.md', content: 'r' });
    expect(await fs.readFile(path.join(fx.workspace.hostRoot, 'outputs', 'result.md'), 'utf8')).toBe('r');
    const err = await failure('write_file', { path: '../../../escape.txt', content: 'x' });
    expect(isWorkspacePathError(err)).toBe(true);
    expect((err as Error).message).toContain('"../../../escape.txt"');
  });

  it('refuses writing through a symlink that points outside', async () => {
    const outside = path.join(fx.dataDir, 'outside.txt');
    await fx.workspace.ensureFolders();
    await fs.symlink(outside, path.join(fx.workspace.hostWorkspace, 'link.txt'));
    expect(isWorkspacePathError(await failure('write_file', { path: 'link.txt', content: 'x' }))).toBe(true);
    await expect(fs.access(outside)).rejects.toThrow();
  });
});

describe('read_file', () => {
  beforeEach(async () => {
    await fx.call('write_file', { path: 'ten.txt', content: TEN_LINES });
  });

  it('reads whole files and 1-based inclusive line ranges', async () => {
    expect(await fx.call('read_file', { path: 'ten.txt' })).toBe(TEN_LINES);
    expect(await fx.call('read_file', { path: 'ten.txt', start_line: 2, end_line: 4 })).toBe('line 2\nline 3\nline 4');
    expect(await fx.call('read_file', { path: 'ten.txt', start_line: 9 })).toBe('line 9\nline 10\n');
    expect(await fx.call('read_file', { path: 'ten.txt', end_line: 1 })).toBe('line 1');
    expect(await fx.call('read_file', { path: 'ten.txt', start_line: 10, end_line: 99 })).toBe('line 10\n');
  });

  it('rejects bad ranges, missing files and directories with clear errors', async () => {
    const past = await failure('read_file', { path: 'ten.txt', start_line: 11 });
    expect(hasWorkspaceErrorCode(past, 'INVALID_ARGUMENT')).toBe(true);
    expect((past as Error).message).toContain('10 lines');
    expect(hasWorkspaceErrorCode(await failure('read_file', { path: 'ten.txt', start_line: 5, end_line: 4 }), 'INVALID_ARGUMENT')).toBe(true);
    const missing = await failure('read_file', { path: 'nope.txt' });
    expect(hasWorkspaceErrorCode(missing, 'NOT_FOUND')).toBe(true);
    expect((missing as Error).message).toBe('No such file or directory: /mnt/user-data/workspace/nope.txt');
    expect(hasWorkspaceErrorCode(await failure('read_file', { path: '.' }), 'NOT_A_FILE')).toBe(true);
    expect(isWorkspacePathError(await failure('read_file', { path: '/etc/passwd' }))).toBe(true);
  });

  it('caps long output at a line boundary and says where to continue', async () => {
    const lines = Array.from({ length: 500 }, (_, i) => `row ${String(i + 1).padStart(4, '0')}`);
    await fx.call('write_file', { path: 'big.txt', content: lines.join('\n') });
    const out = await fx.call('read_file', { path: 'big.txt' });
    expect(out.length).toBeLessThanOrEqual(1000);
    const match = /showed lines 1-(\d+) of 500; continue with start_line=(\d+)\]$/.exec(out);
    expect(match).not.toBeNull();
    const last = Number(match?.[1]);
    expect(out).toContain(`row ${String(last).padStart(4, '0')}\n\n[output truncated`);
    expect(Number(match?.[2])).toBe(last + 1);
  });

  it('returns a ToolMessage when invoked with a tool call', async () => {
    const readFile = fx.tools.get('read_file');
    const msg: unknown = await readFile?.invoke({
      id: 'call_7',
      name: 'read_file',
      args: { path: 'ten.txt', start_line: 3, end_line: 3 },
      type: 'tool_call',
    });
    expect(msg).toBeInstanceOf(ToolMessage);
    expect((msg as ToolMessage).tool_call_id).toBe('call_7');
    expect((msg as ToolMessage).content).toBe('line 3');
  });

  it('throws (rather than returning a success string) for a refused path invoked as a tool call', async () => {
    const readFile = fx.tools.get('read_file');
    const call = readFile?.invoke({ id: 'call_8', name: 'read_file', args: { path: '/etc/passwd' }, type: 'tool_call' });
    await expect(call).rejects.toMatchObject({ name: 'WorkspacePathError', code: 'PATH_OUTSIDE_WORKSPACE' });
  });

  it('refuses binary files', async () => {
    await fs.writeFile(path.join(fx.workspace.hostWorkspace, 'bin.dat'), Buffer.from([0x89, 0x50, 0x00, 0x01]));
    expect(hasWorkspaceErrorCode(await failure('read_file', { path: 'bin.dat' }), 'BINARY_FILE')).toBe(true);
  });
});

describe('str_replace', () => {
  beforeEach(async () => {
    await fx.call('write_file', { path: 'code.ts', content: 'const a = 1;\nconst b = 1;\nconst c = 2;\n' });
  });
  const read = (): Promise<string> => fs.readFile(path.join(fx.workspace.hostWorkspace, 'code.ts'), 'utf8');

  it('replaces a unique match, leaving $-patterns in new_str literal', async () => {
    expect(await fx.call('str_replace', { path: 'code.ts', old_str: 'c = 2', new_str: "c = '$&$1'" })).toBe(
      'OK: replaced 1 occurrence in /mnt/user-data/workspace/code.ts',
    );
    expect(await read()).toBe("const a = 1;\nconst b = 1;\nconst c = '$&$1';\n");
  });

  it('fails when old_str is not found', async () => {
    const err = await failure('str_replace', { path: 'code.ts', old_str: 'const d', new_str: 'x' });
    expect(hasWorkspaceErrorCode(err, 'NO_MATCH')).toBe(true);
    expect((err as Error).message).toContain('not found in /mnt/user-data/workspace/code.ts');
  });

  it('fails on an ambiguous match unless replace_all is set', async () => {
    const err = await failure('str_replace', { path: 'code.ts', old_str: '= 1', new_str: '= 3' });
    expect(hasWorkspaceErrorCode(err, 'AMBIGUOUS_MATCH')).toBe(true);
    expect((err as Error).message).toContain('occurs 2 times');
    expect(await read()).toBe('const a = 1;\nconst b = 1;\nconst c = 2;\n');
    expect(await fx.call('str_replace', { path: 'code.ts', old_str: '= 1', new_str: '= 3', replace_all: true })).toBe(
      'OK: replaced 2 occurrences in /mnt/user-data/workspace/code.ts',
    );
    expect(await read()).toBe('const a = 3;\nconst b = 3;\nconst c = 2;\n');
  });

  it('fails on a missing file', async () => {
    expect(hasWorkspaceErrorCode(await failure('str_replace', { path: 'gone.ts', old_str: 'a', new_str: 'b' }), 'NOT_FOUND')).toBe(true);
  });
});

describe('ls', () => {
  it('lists two levels as virtual paths', async () => {
    await fx.call('write_file', { path: 'src/lib/deep.ts', content: '' });
    await fx.call('write_file', { path: 'src/index.ts', content: '' });
    await fx.call('write_file', { path: 'README.md', content: '' });
    await fx.call('write_file', { path: 'node_modules/x/index.js', content: '' });
    expect((await fx.call('ls', { path: '.' })).split('\n')).toEqual([
      '/mnt/user-data/workspace/node_modules/ (not expanded)',
      '/mnt/user-data/workspace/README.md',
      '/mnt/user-data/workspace/src/',
      '/mnt/user-data/workspace/src/index.ts',
      '/mnt/user-data/workspace/src/lib/',
    ]);
    expect((await fx.call('ls', { path: '/mnt/user-data' })).split('\n')).toEqual(
      expect.arrayContaining(['/mnt/user-data/outputs/', '/mnt/user-data/uploads/', '/mnt/user-data/workspace/']),
    );
    expect(await fx.call('ls', { path: '../outputs' })).toBe('/mnt/user-data/outputs/ is empty');
  });

  it('caps huge listings with a note', async () => {
    const dir = path.join(fx.workspace.hostRoot, 'uploads', 'many');
    await fs.mkdir(dir, { recursive: true });
    await Promise.all(Array.from({ length: 600 }, (_, i) => fs.writeFile(path.join(dir, `f${i}.txt`), '')));
    const out = await fx.call('ls', { path: '/mnt/user-data/uploads' });
    expect(out).toContain('list a subdirectory to see more');
    expect(out.length).toBeLessThanOrEqual(1000);
  });

  it('refuses files and paths outside the root', async () => {
    await fx.call('write_file', { path: 'f.txt', content: '' });
    expect(hasWorkspaceErrorCode(await failure('ls', { path: 'f.txt' }), 'NOT_A_DIRECTORY')).toBe(true);
    expect(isWorkspacePathError(await failure('ls', { path: '/' }))).toBe(true);
  });

  it('exposes the entry cap', () => {
    expect(LS_MAX_ENTRIES).toBe(500);
  });
});
