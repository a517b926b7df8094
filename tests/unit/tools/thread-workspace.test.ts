import { promises as fs } from 'node:fs';
import * as path from 'node:path';

import {
  ThreadWorkspace,
  VIRTUAL_ROOT,
  WorkspacePathError,
  hasWorkspaceErrorCode,
  isWorkspacePathError,
  isWorkspaceToolError,
  workspaceFolderName,
} from '../../../src/tools';
import { makeFixture } from './helpers';
import type { Fixture } from './helpers';

let fx: Fixture;
let root: string;

beforeEach(async () => {
  fx = await makeFixture();
  root = fx.workspace.hostRoot;
});
afterEach(() => fx.cleanup());

async function refusal(p: string): Promise<unknown> {
  return fx.workspace.resolve(p).then(
    () => new Error(`expected ${p} to be refused`),
    (err: unknown) => err,
  );
}

describe('ThreadWorkspace', () => {
  it('puts the root under <dataDir>/threads/<threadId>/user-data and creates the folders on demand', async () => {
    expect(root).toBe(path.join(fx.dataDir, 'threads', 'thread-1', 'user-data'));
    await fx.workspace.resolve('hello.txt');
    for (const folder of ['workspace', 'uploads', 'outputs']) {
      expect((await fs.stat(path.join(root, folder))).isDirectory()).toBe(true);
    }
  });

  it('gives each batch item its own root under the thread, which an item cannot leave', async () => {
    const item = new ThreadWorkspace(fx.dataDir, 'thread-1', { batchId: 'b1', itemKey: 'k1' });
    const sibling = new ThreadWorkspace(fx.dataDir, 'thread-1', { batchId: 'b1', itemKey: 'k2' });
    expect(item.hostRoot).toBe(path.join(root, 'batches', 'b1', 'k1'));
    expect(sibling.hostRoot).not.toBe(item.hostRoot);
    await expect(item.resolve('/mnt/user-data/../k2/outputs/a.md')).rejects.toBeInstanceOf(WorkspacePathError);
    expect(await item.resolve('/mnt/user-data/outputs/a.md')).toBe(path.join(item.hostRoot, 'outputs', 'a.md'));
    // The thread's own workspace reaches into every item's folder.
    expect(await fx.workspace.resolve('/mnt/user-data/batches/b1/k2/outputs/a.md')).toBe(path.join(sibling.hostRoot, 'outputs', 'a.md'));
  });

  it.each(['../up', 'a/b', '.', '..', ' padded', 'x'.repeat(129)])('names the folder of unsafe id %j by its hash, never by the id', (id) => {
    const name = workspaceFolderName(id);
    expect(name).toMatch(/^~[0-9a-f]{64}$/);
    expect(workspaceFolderName(`${id}!`)).not.toBe(name);
  });

  it('keeps a safe id as its folder name', () => {
    expect(workspaceFolderName('item-0001.v2')).toBe('item-0001.v2');
  });

  it.each([
    ['hello.txt', 'workspace/hello.txt'],
    ['../uploads/input.csv', 'uploads/input.csv'],
    ['../outputs/result.md', 'outputs/result.md'],
    ['./src/../notes.md', 'workspace/notes.md'],
    ['/mnt/user-data/workspace/a/b.txt', 'workspace/a/b.txt'],
    ['/mnt/user-data/uploads/input.csv', 'uploads/input.csv'],
    ['/mnt/user-data/outputs/', 'outputs'],
  ])('maps %s into the root', async (agentPath, rel) => {
    const host = await fx.workspace.resolve(agentPath);
    expect(host).toBe(path.join(root, ...rel.split('/')));
    expect(fx.workspace.toVirtual(host)).toBe(`${VIRTUAL_ROOT}/${rel}`);
  });

  it('maps the virtual root itself and an empty path', async () => {
    expect(await fx.workspace.resolve('/mnt/user-data')).toBe(root);
    expect(await fx.workspace.resolve('')).toBe(path.join(root, 'workspace'));
    expect(fx.workspace.toVirtual(root)).toBe(VIRTUAL_ROOT);
  });

  it.each(['../../..', '../..', '/etc/passwd', '/mnt/user-data/../../etc/passwd', '/mnt/user-data-old/x', '/mnt'])(
    'refuses %s with a WorkspacePathError naming the path',
    async (agentPath) => {
      const err = await refusal(agentPath);
      expect(err).toBeInstanceOf(WorkspacePathError);
      expect(isWorkspacePathError(err)).toBe(true);
      expect(isWorkspaceToolError(err)).toBe(true);
      expect(hasWorkspaceErrorCode(err, 'PATH_OUTSIDE_WORKSPACE')).toBe(true);
      const e = err as WorkspacePathError;
      expect(e.name).toBe('WorkspacePathError');
      expect(e.path).toBe(agentPath);
      expect(e.message).toContain(JSON.stringify(agentPath));
      expect(e.message).not.toContain(fx.dataDir);
    },
  );

  it('refuses the host path itself, since agents only get virtual paths', async () => {
    expect(isWorkspacePathError(await refusal(path.join(root, 'workspace', 'x')))).toBe(true);
  });

  it('refuses a symlink pointing outside the root, also below it and when dangling', async () => {
    const outside = await fs.mkdtemp(path.join(fx.dataDir, 'outside-'));
    await fs.writeFile(path.join(outside, 'secret.txt'), 'secret');
    await fx.workspace.ensureFolders();
    await fs.symlink(outside, path.join(root, 'workspace', 'escape'));
    await fs.symlink(path.join(outside, 'new.txt'), path.join(root, 'workspace', 'dangling'));

    for (const p of ['escape', 'escape/secret.txt', 'escape/missing/deeper.txt', 'dangling']) {
      const err = await refusal(p);
      expect(isWorkspacePathError(err)).toBe(true);
      expect((err as WorkspacePathError).message).toContain(JSON.stringify(p));
    }
  });

  it('allows a symlink that stays inside the root', async () => {
    await fx.workspace.ensureFolders();
    await fs.symlink(path.join(root, 'uploads'), path.join(root, 'workspace', 'up'));
    expect(await fx.workspace.resolve('up/input.csv')).toBe(path.join(root, 'workspace', 'up', 'input.csv'));
  });

  it.each(['..', '.', '../other', 'a/b', '', 'x'.repeat(129), 'white space', '-leading'])(
    'rejects thread id %j',
    (threadId) => {
      let caught: unknown;
      try {
        new ThreadWorkspace(fx.dataDir, threadId);
      } catch (err) {
        caught = err;
      }
      expect(hasWorkspaceErrorCode(caught, 'INVALID_THREAD_ID')).toBe(true);
    },
  );

  it('toVirtual refuses host paths outside the root', () => {
    expect(() => fx.workspace.toVirtual(fx.dataDir)).toThrow(WorkspacePathError);
  });
});
