/** Workspace-confined tools, `web_fetch` and `tool_search`: path mapping, errors and the langchain tools. */
export {
  ThreadWorkspace,
  VIRTUAL_ROOT,
  VIRTUAL_WORKSPACE,
  WORKSPACE_FOLDERS,
  workspaceFolderName,
} from './thread-workspace';
export type { BatchItemScope, WorkspaceFolder } from './thread-workspace';
export {
  WebFetchError,
  WorkspacePathError,
  WorkspaceToolError,
  hasWorkspaceErrorCode,
  isWebFetchError,
  isWorkspacePathError,
  isWorkspaceToolError,
  toWorkspaceToolError,
} from './errors';
export type { WebFetchErrorCode, WorkspacePathErrorCode, WorkspaceToolErrorCode } from './errors';
export { WORKSPACE_TOOL_NAMES, createWorkspaceTools } from './workspace-tools';
export type { CreateWorkspaceToolsOptions, WorkspaceSandboxOptions, WorkspaceToolName } from './workspace-tools';
export { createAgentTools } from './lead-tools';
export type { AgentToolsOptions } from './lead-tools';
export { createBashTool } from './bash-tool';
export type { BashToolOptions } from './bash-tool';
export {
  LS_MAX_ENTRIES,
  createLsTool,
  createReadFileTool,
  createStrReplaceTool,
  createWriteFileTool,
} from './file-tools';
export type { FileToolOptions, ReadOnlyMount } from './file-tools';
export { HeadTailBuffer, capHeadTail } from './output-cap';
export { WEB_FETCH_TOOL_NAME, createWebFetchTool } from './web-fetch-tool';
export type { WebFetchLookup, WebFetchToolOptions } from './web-fetch-tool';
export { classifyAddress, describeAddressClass, isPublicAddress } from './network-guard';
export type { AddressClass } from './network-guard';
export { runShellCommand } from './run-command';
export type { RunShellCommandOptions, RunShellCommandResult } from './run-command';
export { rankTools, SELECT_QUERY_PREFIX } from './tool-search-ranking';
export type { RankableTool } from './tool-search-ranking';
export { createToolSearchTool, promotedToolsOf, searchDeferredTools, toolSearchMessage, toolSearchToolSpec } from './tool-search-tool';
export type { DeferredTool, ToolSearchResult } from './tool-search-tool';
