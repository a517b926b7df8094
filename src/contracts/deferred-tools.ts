import { mcpServerOf } from './mcp-tool-names';
import { TOOL_SEARCH_TOOL_NAME } from './tool-names';

/**
 * Deferred tools (pure, workflow-safe). With `tool_search.enabled`, an agent's MCP tools are not
 * bound up front: the prompt lists their names, and `tool_search` returns the schemas of those it
 * matches and promotes them, bound from the agent's next model call on, for the rest of that lead
 * run or subagent task. A call to a tool whose schema the model was never given is refused, as a
 * call to an unknown tool is: its arguments can only be guesses.
 */

/** Key of a `tool_search` tool message's `additional_kwargs` naming the tools it promoted. */
export const PROMOTED_TOOLS_KWARG = 'promoted_tools';

/** Whether a lead run's tool snapshot defers its MCP tools: it holds `tool_search` exactly then. */
export function defersMcpTools(toolList: readonly string[]): boolean {
  return toolList.includes(TOOL_SEARCH_TOOL_NAME);
}

/** Whether a call to `toolName` waits for promotion: an MCP tool that is not promoted yet. */
export function awaitsPromotion(toolName: string, promoted: readonly string[]): boolean {
  return mcpServerOf(toolName) !== null && !promoted.includes(toolName);
}

/** The promoted tools once a search promoted `found`: first promotion order, no duplicates. */
export function promoteTools(promoted: readonly string[], found: readonly string[]): string[] {
  return [...new Set([...promoted, ...found])];
}

/** What a refused call to a deferred tool is told, so the model loads it instead of retrying. */
export function deferredToolRefusal(toolName: string): string {
  return `tool '${toolName}' is deferred and its schema is not loaded yet: call ${TOOL_SEARCH_TOOL_NAME} (e.g. query "select:${toolName}") to load it, then call it in your next response`;
}
