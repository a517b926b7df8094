import { defersMcpTools } from '../contracts/deferred-tools';
import { mcpServerOf } from '../contracts/mcp-tool-names';
import { TOOL_SEARCH_TOOL_NAME } from '../contracts/tool-names';
import { expandToolList } from './expand-tool-list';
import type { McpToolEntry } from './mcp-tool';

/** A lead run's tool snapshot as one model step binds it. */
export interface LeadToolBinding {
  /**
   * Names bound for the step, in the snapshot's order: its built-in entries (`tool_search` only
   * when there is something to load), then the bound MCP tools.
   */
  readonly names: string[];
  /** MCP tools bound: every allowed one, or only the promoted ones when the run defers them. */
  readonly bound: McpToolEntry[];
  /** MCP tools behind `tool_search` and not promoted yet: listed in the prompt, not bound. */
  readonly deferred: McpToolEntry[];
  /** What `tool_search` searches: every allowed MCP tool of this worker ([] without deferral). */
  readonly searchable: McpToolEntry[];
}

/**
 * Splits a run's tool snapshot against this worker's connected MCP tools (pure): without deferral
 * every allowed MCP tool is bound; with it (the snapshot holds `tool_search`) only those the run
 * promoted are, and the rest wait behind `tool_search`.
 */
export function bindLeadTools(list: readonly string[], connected: readonly McpToolEntry[], promoted: readonly string[]): LeadToolBinding {
  const { names, mcp } = expandToolList(list, connected);
  if (!defersMcpTools(list)) return { names, bound: mcp, deferred: [], searchable: [] };
  const bound = mcp.filter((entry) => promoted.includes(entry.name));
  const ownNames = list.filter((entry) => mcpServerOf(entry) === null && (entry !== TOOL_SEARCH_TOOL_NAME || mcp.length > 0));
  return {
    names: [...ownNames, ...bound.map((entry) => entry.name)],
    bound,
    deferred: mcp.filter((entry) => !promoted.includes(entry.name)),
    searchable: mcp,
  };
}
