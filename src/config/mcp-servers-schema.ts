import { z } from 'zod';
import { LEAD_TOOL_NAMES } from '../contracts/tool-names';
import { isValidToolName, MCP_SERVER_NAME_PATTERN, mcpServerOf } from '../contracts/mcp-tool-names';

/**
 * The `mcp_servers` section: MCP servers whose tools the lead and subagents may use. Values of `env`
 * and `headers` may reference environment variables as `${NAME}`; they are resolved when a worker
 * connects, so the file never holds a secret and nothing resolved is ever logged.
 */

/** How a worker talks to an MCP server. */
export const MCP_TRANSPORTS = ['stdio', 'http'] as const;

const STDIO_ONLY = ['command', 'args', 'env', 'cwd'] as const;
const HTTP_ONLY = ['url', 'headers'] as const;

/** One `mcp_servers.<name>` entry. */
export const McpServerSchema = z
  .strictObject({
    transport: z.enum(MCP_TRANSPORTS),
    /** stdio: the executable the worker starts (one process per worker). */
    command: z.string().trim().min(1).optional(),
    args: z.array(z.string()).optional(),
    /** stdio: variables added to a minimal environment (PATH, HOME, ...); `${NAME}` reads the worker's. */
    env: z.record(z.string().min(1), z.string()).optional(),
    /** stdio: working directory, relative to the config file's folder. */
    cwd: z.string().trim().min(1).optional(),
    /** http: the streamable-HTTP endpoint. */
    url: z.url().optional(),
    /** http: request headers (e.g. `Authorization: Bearer ${DOCS_TOKEN}`). */
    headers: z.record(z.string().min(1), z.string()).optional(),
    /** false = the server is ignored (no connection, no tools). */
    enabled: z.boolean().default(true),
    /** Offer only these tools of the server (its own names, without the `<server>__` prefix); null = all. */
    tools: z.array(z.string().trim().min(1)).nullable().default(null),
    /** Bound on connecting and on each tool call. */
    timeout_seconds: z.number().int().min(1).max(3600).default(60),
  })
  .superRefine((s, ctx) => {
    const present = (key: string) => (s as Record<string, unknown>)[key] !== undefined;
    if (s.transport === 'stdio' && s.command === undefined) ctx.addIssue({ code: 'custom', path: ['command'], message: 'is required for transport "stdio"' });
    if (s.transport === 'http' && s.url === undefined) ctx.addIssue({ code: 'custom', path: ['url'], message: 'is required for transport "http"' });
    const foreign = s.transport === 'stdio' ? HTTP_ONLY : STDIO_ONLY;
    for (const key of foreign.filter(present)) ctx.addIssue({ code: 'custom', path: [key], message: `is not used by transport "${s.transport}"` });
  });
export type McpServerConfig = z.infer<typeof McpServerSchema>;

/** `mcp_servers`: server name → server. Names prefix their tools (`<server>__<tool>`). */
export const McpServersSchema = z
  .record(
    z.string().regex(MCP_SERVER_NAME_PATTERN, 'must be 1-32 characters: letters, digits, - and single _ between them'),
    McpServerSchema,
  )
  .default({});

/**
 * One entry of a lead agent's `tools`: a built-in lead tool, an MCP tool `<server>__<tool>`, or every
 * tool of a server, `<server>__*`. Whether the server is configured is checked with the whole config.
 */
export const LeadToolEntrySchema = z.string().refine(
  (entry) => (LEAD_TOOL_NAMES as readonly string[]).includes(entry) || isMcpEntry(entry),
  { message: `must be one of ${LEAD_TOOL_NAMES.join(', ')}, an MCP tool <server>__<tool> or <server>__*` },
);

function isMcpEntry(entry: string): boolean {
  const server = mcpServerOf(entry);
  if (server === null) return false;
  const rest = entry.slice(server.length + 2);
  return rest === '*' || isValidToolName(entry);
}
