import type { StructuredToolInterface } from '@langchain/core/tools';

import { createBashTool } from './bash-tool';
import { createLsTool, createReadFileTool, createStrReplaceTool, createWriteFileTool } from './file-tools';
import type { FileToolOptions, ReadOnlyMount } from './file-tools';
import type { ThreadWorkspace } from './thread-workspace';

/** The `sandbox` settings the tools need (same fields as `SandboxConfigSchema`). */
export interface WorkspaceSandboxOptions {
  allow_host_bash: boolean;
  bash_timeout_seconds: number;
  max_output_chars: number;
  /** Largest file `read_file` and `str_replace` open. */
  max_file_bytes: number;
}

/** Inputs of {@link createWorkspaceTools}. */
export interface CreateWorkspaceToolsOptions {
  workspace: ThreadWorkspace;
  sandbox: WorkspaceSandboxOptions;
  /** Read-only folders outside `/mnt/user-data` that `read_file` may read (e.g. `/mnt/skills`). */
  readOnlyMounts?: readonly ReadOnlyMount[];
}

/** Names of the tools {@link createWorkspaceTools} can return, in order. */
export const WORKSPACE_TOOL_NAMES = ['bash', 'ls', 'read_file', 'write_file', 'str_replace'] as const;
/** Name of one of the workspace tools. */
export type WorkspaceToolName = (typeof WORKSPACE_TOOL_NAMES)[number];

/**
 * The file and shell tools of one thread, all confined to its `/mnt/user-data`. `bash` is only
 * included when `sandbox.allow_host_bash` is true, since it is not isolated from the host.
 */
export function createWorkspaceTools(options: CreateWorkspaceToolsOptions): StructuredToolInterface[] {
  const { workspace, sandbox } = options;
  const fileOptions: FileToolOptions = {
    workspace,
    max_output_chars: sandbox.max_output_chars,
    max_file_bytes: sandbox.max_file_bytes,
    readOnlyMounts: options.readOnlyMounts ?? [],
  };
  const tools: StructuredToolInterface[] = [];
  if (sandbox.allow_host_bash) {
    tools.push(
      createBashTool({
        workspace,
        bash_timeout_seconds: sandbox.bash_timeout_seconds,
        max_output_chars: sandbox.max_output_chars,
      }),
    );
  }
  tools.push(
    createLsTool(fileOptions),
    createReadFileTool(fileOptions),
    createWriteFileTool(fileOptions),
    createStrReplaceTool(fileOptions),
  );
  return tools;
}
