import type { StructuredToolInterface } from '@langchain/core/tools';

import type { WebFetchConfig } from '../config/schema';
import type { ReadOnlyMount } from './file-tools';
import type { ThreadWorkspace } from './thread-workspace';
import { createWebFetchTool } from './web-fetch-tool';
import { createWorkspaceTools, type WorkspaceSandboxOptions } from './workspace-tools';

/** Inputs of {@link createAgentTools}. */
export interface AgentToolsOptions {
  readonly workspace: ThreadWorkspace;
  readonly sandbox: WorkspaceSandboxOptions;
  readonly webFetch: WebFetchConfig;
  /** Keep only these tools (null = all of them). */
  readonly names: readonly string[] | null;
  /** Read-only folders outside `/mnt/user-data` that `read_file` may read (e.g. a subagent's `/mnt/skills`). */
  readonly readOnlyMounts?: readonly ReadOnlyMount[];
}

/**
 * The tools an agent works with directly, one thread's: the workspace tools (`bash` only with
 * host bash allowed) and `web_fetch`. The lead binds them per model step and runs each call in a
 * `runLeadTool` activity; subagents get them filtered by their definition.
 */
export function createAgentTools(options: AgentToolsOptions): StructuredToolInterface[] {
  const { names } = options;
  const tools = [
    ...createWorkspaceTools({ workspace: options.workspace, sandbox: options.sandbox, readOnlyMounts: options.readOnlyMounts ?? [] }),
    createWebFetchTool({ ...options.webFetch }),
  ];
  return names === null ? tools : tools.filter((t) => names.includes(t.name));
}
