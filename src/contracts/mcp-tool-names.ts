/**
 * Names of MCP tools (pure, workflow-safe): a server's tool `echo` is offered as `<server>__echo`,
 * so two servers never collide with each other or with a built-in tool.
 */

/** Separator between an MCP server's name and its tool's name (`<server>__<tool>`). */
export const MCP_TOOL_SEPARATOR = '__';

/**
 * What every provider accepts as a tool name (OpenAI's rule, the strictest of those we support):
 * letters, digits, `_` and `-`, at most 64 characters.
 */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * An `mcp_servers` key: letters, digits and `-`, single `_` between them, at most 32 characters, so
 * that `<server>__` is unambiguous and leaves room for the tool's own name.
 */
export const MCP_SERVER_NAME_PATTERN = /^(?=.{1,32}$)[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*$/;

/** Whether `name` may be offered to a model as a tool name. */
export function isValidToolName(name: string): boolean {
  return TOOL_NAME_PATTERN.test(name);
}

/** The name an MCP server's tool is offered under: `<server>__<tool>` (not validated). */
export function mcpToolName(server: string, tool: string): string {
  return `${server}${MCP_TOOL_SEPARATOR}${tool}`;
}

/** The server part of an MCP tool name (or of a `<server>__*` entry), or null for any other name. */
export function mcpServerOf(toolName: string): string | null {
  const at = toolName.indexOf(MCP_TOOL_SEPARATOR);
  if (at <= 0) return null;
  const server = toolName.slice(0, at);
  return MCP_SERVER_NAME_PATTERN.test(server) ? server : null;
}
