import { mcpServerOf } from '../contracts/mcp-tool-names';
import { toolListIncludes } from '../contracts/tool-patterns';
import type { McpToolEntry } from './mcp-tool';

/** A tool list with its MCP entries replaced by the connected tools they allow. */
export interface ExpandedToolList {
  /** The list's other names in its order, then the allowed MCP tools' names. */
  readonly names: string[];
  /** The MCP tools the list allows, among `connected`. */
  readonly mcp: McpToolEntry[];
}

/**
 * Expands a run's tool snapshot (`read_file`, `docs__*`, `docs__search`) against the MCP tools a
 * worker has connected (pure): MCP names in a snapshot are entries, not tools, since only a connected
 * worker knows them.
 */
export function expandToolList(list: readonly string[], connected: readonly McpToolEntry[]): ExpandedToolList {
  const mcp = connected.filter((e) => toolListIncludes(list, e.name));
  return { names: [...list.filter((entry) => mcpServerOf(entry) === null), ...mcp.map((e) => e.name)], mcp };
}
