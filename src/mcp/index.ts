/**
 * MCP servers as tool sources: `mcp_servers` connections held per worker process, their statuses,
 * and their tools namespaced `<server>__<tool>`.
 */
export { isMcpError, McpError } from './errors';
export type { McpErrorCode } from './errors';
export { McpServerState } from './mcp-server-connection';
export type { McpBackoff, McpServerStatus } from './mcp-server-connection';
export { toMcpToolEntries, toolOutputText } from './mcp-tool';
export type { LoadedServerTools, McpToolEntry } from './mcp-tool';
export { expandToolList } from './expand-tool-list';
export type { ExpandedToolList } from './expand-tool-list';
export { bindLeadTools } from './lead-tool-binding';
export type { LeadToolBinding } from './lead-tool-binding';
export { McpToolRegistry } from './mcp-tool-registry';
export type { McpToolRegistryOptions } from './mcp-tool-registry';
