import { promises as fs, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import type { StructuredToolInterface } from '@langchain/core/tools';

import { ThreadWorkspace, createWorkspaceTools } from '../../../src/tools';
import type { WorkspaceSandboxOptions } from '../../../src/tools';

export interface Fixture {
  dataDir: string;
  workspace: ThreadWorkspace;
  tools: Map<string, StructuredToolInterface>;
  /** Calls a tool by name and returns its string result. */
  call: (name: string, args: Record<string, unknown>) => Promise<string>;
  cleanup: () => Promise<void>;
}

export const DEFAULT_SANDBOX: WorkspaceSandboxOptions = {
  allow_host_bash: true,
  bash_timeout_seconds: 10,
  max_output_chars: 2000,
  max_file_bytes: 10_000_000,
};

export async function makeFixture(sandbox: Partial<WorkspaceSandboxOptions> = {}): Promise<Fixture> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'deerflow-tools-'));
  const workspace = new ThreadWorkspace(dataDir, 'thread-1');
  const list = createWorkspaceTools({ workspace, sandbox: { ...DEFAULT_SANDBOX, ...sandbox } });
  const tools = new Map(list.map((t) => [t.name, t]));
  const call = async (name: string, args: Record<string, unknown>): Promise<string> => {
    const t = tools.get(name);
    if (t === undefined) throw new Error(`no tool ${name}`);
    const out: unknown = await t.invoke(args);
    if (typeof out !== 'string') throw new Error(`tool ${name} returned ${typeof out}`);
    return out;
  };
  return { dataDir, workspace, tools, call, cleanup: () => fs.rm(dataDir, { recursive: true, force: true }) };
}

/** False for processes that are gone or zombies (the container's init may not reap them at once). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}
