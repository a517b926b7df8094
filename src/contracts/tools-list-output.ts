import { z } from 'zod';

/** One tool in `deerflow tools list --json`. */
export const ToolsListToolSchema = z.strictObject({
  /** The name the model calls it by (`read_file`, `<server>__<tool>`). */
  name: z.string(),
  source: z.enum(['builtin', 'mcp']),
  /** The MCP server it comes from; null for a built-in tool. */
  server: z.string().nullable(),
  /**
   * `bound`: its schema is sent with every model call; `deferred` (`tool_search.enabled`): only its
   * name is listed in the prompt until `tool_search` promotes it for the rest of the run or task.
   */
  binding: z.enum(['bound', 'deferred']),
  /** First line of the description the model is given. */
  description: z.string(),
});
export type ToolsListTool = z.infer<typeof ToolsListToolSchema>;

/** One enabled MCP server as this process saw it when listing. */
export const ToolsListServerSchema = z.strictObject({
  name: z.string(),
  transport: z.enum(['stdio', 'http']),
  status: z.enum(['connected', 'failed']),
  /** Why it is not connected (never a resolved secret); null when connected. */
  reason: z.string().nullable(),
  /** How many of the server's tools this agent has. */
  tools: z.number().int().nonnegative(),
});
export type ToolsListServer = z.infer<typeof ToolsListServerSchema>;

/** The object `deerflow tools list --json` prints. */
export const ToolsListOutputSchema = z.strictObject({
  agent: z.strictObject({ kind: z.enum(['lead', 'subagent']), name: z.string() }),
  tools: z.array(ToolsListToolSchema),
  mcp_servers: z.array(ToolsListServerSchema),
});
export type ToolsListOutput = z.infer<typeof ToolsListOutputSchema>;
