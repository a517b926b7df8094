import { MCP_TOOL_SEPARATOR } from './mcp-tool-names';

/**
 * Tool allow/deny lists (pure, workflow-safe). An entry is a tool name (`read_file`,
 * `docs__search`) or a whole MCP server, `<server>__*`: MCP tool names are only known once a worker
 * has connected to the server, so a run started elsewhere can still name every tool of a server.
 */

const SERVER_WILDCARD = `${MCP_TOOL_SEPARATOR}*`;

/** The list entry that allows every tool of MCP server `server`. */
export function mcpServerPattern(server: string): string {
  return `${server}${SERVER_WILDCARD}`;
}

/** Whether `entry` names `toolName`, exactly or as its MCP server's `<server>__*`. */
export function toolEntryMatches(entry: string, toolName: string): boolean {
  if (!entry.endsWith(SERVER_WILDCARD)) return entry === toolName;
  const prefix = entry.slice(0, -1);
  return toolName.startsWith(prefix) && toolName.length > prefix.length;
}

/** Whether any entry of `list` names `toolName`. */
export function toolListIncludes(list: readonly string[], toolName: string): boolean {
  return list.some((entry) => toolEntryMatches(entry, toolName));
}

/** An allowlist check: null allows every tool. */
export function toolAllowed(allowlist: readonly string[] | null, toolName: string): boolean {
  return allowlist === null || toolListIncludes(allowlist, toolName);
}
