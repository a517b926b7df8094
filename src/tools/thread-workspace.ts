import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

import { isValidThreadId } from '../contracts';
import { WorkspacePathError, WorkspaceToolError } from './errors';

/** The root every agent sees; it maps to the thread's `user-data` folder on the host. */
export const VIRTUAL_ROOT = '/mnt/user-data';

/** The three folders under {@link VIRTUAL_ROOT}. */
export const WORKSPACE_FOLDERS = ['workspace', 'uploads', 'outputs'] as const;
/** `workspace`, `uploads` or `outputs`. */
export type WorkspaceFolder = (typeof WORKSPACE_FOLDERS)[number];

/** Relative paths are resolved against this virtual folder. */
export const VIRTUAL_WORKSPACE = `${VIRTUAL_ROOT}/workspace`;

/** Host folder, under a thread's `user-data`, that holds one batch's item workspaces. */
const BATCH_ITEMS_FOLDER = 'batches';

/**
 * A folder name for an id that may hold any printable character (batch item keys may contain `/`
 * or `..`): safe ids are kept as they are; others become `~<sha256>`, which no safe id can equal
 * because safe ids start with a letter or digit.
 */
export function workspaceFolderName(id: string): string {
  return isValidThreadId(id) ? id : `~${createHash('sha256').update(id, 'utf8').digest('hex')}`;
}

/** The batch item a workspace belongs to. */
export interface BatchItemScope {
  readonly batchId: string;
  readonly itemKey: string;
}

/**
 * One thread's files: host folder `<dataDir>/threads/<threadId>/user-data`, shown to agents as
 * `/mnt/user-data`. Every path a tool touches goes through {@link ThreadWorkspace.resolve}.
 *
 * A batch item gets its own root, `<thread user-data>/batches/<batch>/<item>`: items never see
 * each other's files, while the thread's owner (the lead that started the batch, whose root
 * contains it) can read every item's outputs at `/mnt/user-data/batches/<batch>/<item>/...`.
 */
export class ThreadWorkspace {
  readonly threadId: string;
  /** Absolute host path of `/mnt/user-data`. */
  readonly hostRoot: string;
  private realRootPromise: Promise<string> | undefined;

  /**
   * @param dataDir - the application data directory (made absolute against the current directory)
   * @param threadId - 1-128 chars of `[A-Za-z0-9_.-]`, starting with a letter or digit
   * @param item - the batch item whose own root this is, when the workspace is an item's
   * @throws WorkspaceToolError with code `INVALID_THREAD_ID`
   */
  constructor(dataDir: string, threadId: string, item?: BatchItemScope) {
    if (!isValidThreadId(threadId)) {
      throw new WorkspaceToolError(
        'INVALID_THREAD_ID',
        `Invalid thread id ${JSON.stringify(threadId)}: use 1-128 letters, digits, '_', '-' or '.', starting with a letter or digit`,
      );
    }
    this.threadId = threadId;
    const threadRoot = path.join(path.resolve(dataDir), 'threads', threadId, 'user-data');
    this.hostRoot =
      item === undefined ? threadRoot : path.join(threadRoot, BATCH_ITEMS_FOLDER, workspaceFolderName(item.batchId), workspaceFolderName(item.itemKey));
  }

  /** Host path of one of the three folders (not created). */
  hostFolder(folder: WorkspaceFolder): string {
    return path.join(this.hostRoot, folder);
  }

  /** Host path of `/mnt/user-data/workspace`, the default working directory. */
  get hostWorkspace(): string {
    return this.hostFolder('workspace');
  }

  /** Creates `workspace`, `uploads` and `outputs` if missing. Cheap enough to call before every operation. */
  async ensureFolders(): Promise<void> {
    await Promise.all(WORKSPACE_FOLDERS.map((f) => fs.mkdir(this.hostFolder(f), { recursive: true })));
  }

  /** The host root with every symlink resolved (e.g. a data dir under a symlinked `/tmp`). */
  async realHostRoot(): Promise<string> {
    if (this.realRootPromise === undefined) {
      this.realRootPromise = this.ensureFolders().then(() => fs.realpath(this.hostRoot));
      this.realRootPromise.catch(() => {
        this.realRootPromise = undefined;
      });
    }
    return this.realRootPromise;
  }

  /**
   * Maps an agent path to a host path. Absolute paths must lie under `/mnt/user-data`; relative
   * ones are relative to `/mnt/user-data/workspace`. The result, with symlinks followed as far as
   * the path exists, must stay inside the root.
   * @throws WorkspacePathError naming `agentPath` when it escapes the root or is malformed
   */
  async resolve(agentPath: string): Promise<string> {
    const hostPath = this.resolveLexically(agentPath);
    const realRoot = await this.realHostRoot();
    let real: string;
    try {
      real = await realpathOfNearest(hostPath);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'unknown error';
      throw new WorkspacePathError(agentPath, `Cannot resolve ${JSON.stringify(agentPath)}: ${code}`, 'INVALID_PATH');
    }
    if (!isInside(real, realRoot)) {
      throw new WorkspacePathError(
        agentPath,
        `Access denied: ${JSON.stringify(agentPath)} resolves (through a symlink) outside ${VIRTUAL_ROOT}`,
      );
    }
    return hostPath;
  }

  /** The virtual path of `agentPath` after normalisation, without touching the disk. */
  toVirtualPath(agentPath: string): string {
    return this.toVirtual(this.resolveLexically(agentPath));
  }

  /**
   * Host path to the path agents see (`<root>/outputs/a.md` to `/mnt/user-data/outputs/a.md`).
   * @throws WorkspacePathError when `hostPath` is not under the host root
   */
  toVirtual(hostPath: string): string {
    const rel = path.relative(this.hostRoot, path.resolve(hostPath));
    if (rel === '') return VIRTUAL_ROOT;
    if (!isRelativeInside(rel)) {
      throw new WorkspacePathError(hostPath, `Path is outside the thread workspace: ${JSON.stringify(hostPath)}`);
    }
    return `${VIRTUAL_ROOT}/${rel.split(path.sep).join('/')}`;
  }

  /** A function replacing host-root occurrences in tool output with {@link VIRTUAL_ROOT}. */
  async textVirtualizer(): Promise<(text: string) => string> {
    const roots = [...new Set([await this.realHostRoot(), this.hostRoot])].sort((a, b) => b.length - a.length);
    return (text) => roots.reduce((acc, root) => acc.split(root).join(VIRTUAL_ROOT), text);
  }

  private resolveLexically(agentPath: string): string {
    if (agentPath.includes('\0')) {
      throw new WorkspacePathError(agentPath, `Invalid path ${JSON.stringify(agentPath)}: contains a NUL byte`, 'INVALID_PATH');
    }
    const virtual = path.posix.resolve(VIRTUAL_WORKSPACE, agentPath.trim() === '' ? '.' : agentPath);
    if (virtual !== VIRTUAL_ROOT && !virtual.startsWith(`${VIRTUAL_ROOT}/`)) {
      throw new WorkspacePathError(
        agentPath,
        `Access denied: ${JSON.stringify(agentPath)} is outside ${VIRTUAL_ROOT} (resolved to ${virtual}); ` +
          `use paths under ${VIRTUAL_ROOT}/{workspace,uploads,outputs} or relative to ${VIRTUAL_WORKSPACE}`,
      );
    }
    const rel = virtual.slice(VIRTUAL_ROOT.length + 1);
    return rel === '' ? this.hostRoot : path.join(this.hostRoot, ...rel.split('/'));
  }
}

function isRelativeInside(rel: string): boolean {
  return rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}

function isInside(candidate: string, root: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === '' || isRelativeInside(rel);
}

const MAX_SYMLINK_HOPS = 40;

/**
 * realpath of the deepest existing ancestor, with the missing tail appended. A dangling symlink is
 * followed by hand, because writing through it would create its (possibly outside) target.
 */
async function realpathOfNearest(p: string, hops = 0): Promise<string> {
  try {
    return await fs.realpath(p);
  } catch (err) {
    if (!isMissing(err)) throw err;
  }
  const stat = await fs.lstat(p).catch(() => undefined);
  if (stat?.isSymbolicLink()) {
    if (hops >= MAX_SYMLINK_HOPS) throw Object.assign(new Error(`too many symlinks: ${p}`), { code: 'ELOOP' });
    const target = await fs.readlink(p);
    return realpathOfNearest(path.resolve(path.dirname(p), target), hops + 1);
  }
  const parent = path.dirname(p);
  if (parent === p) return p;
  return path.join(await realpathOfNearest(parent, hops), path.basename(p));
}

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
