import type { AppConfig } from '../config/schema';
import type { SubagentDefinition } from './subagent-definition';
import { subagentHasTool } from './subagent-tool-policy';

/**
 * A subagent's tools behind `tool_search` (pure): with `tool_search.enabled`, the MCP tools its
 * allow/deny lists give it; null when nothing is deferred (disabled, or no such tool), so every
 * tool is bound as before and no `tool_search` is added.
 */
export function subagentDeferredTools<T extends { readonly name: string }>(
  config: Pick<AppConfig, 'tool_search'>,
  def: Pick<SubagentDefinition, 'tools' | 'disallowedTools'>,
  mcpTools: readonly T[],
): T[] | null {
  if (!config.tool_search.enabled) return null;
  const own = mcpTools.filter((tool) => subagentHasTool(def, tool.name));
  return own.length > 0 ? own : null;
}
