import { z } from 'zod';

/**
 * The `tool_search` section: deferred MCP tools. When enabled, an agent's MCP tool schemas are not
 * bound up front; the prompt lists their names and one-line descriptions, and the `tool_search`
 * tool returns the schemas of the tools a query matches and promotes them for the rest of the lead
 * run or subagent task. Worth it once MCP servers bring more tools than a model should see per call.
 */
export const ToolSearchConfigSchema = z.strictObject({
  /** Defer MCP tools behind `tool_search`. Off by default: every allowed MCP tool is bound. */
  enabled: z.boolean().default(false),
  /** Most tools one `tool_search` call returns (and promotes). */
  max_results: z.number().int().min(1).max(50).default(5),
});
export type ToolSearchConfig = z.infer<typeof ToolSearchConfigSchema>;
