import type { AppConfig } from '../config/schema';
import { mcpServerOf } from '../contracts/mcp-tool-names';
import { LEAD_TOOL_NAMES, TOOL_SEARCH_TOOL_NAME } from '../contracts/tool-names';
import { mcpServerPattern } from '../contracts/tool-patterns';

/**
 * The lead's own tools for a run (pure): every lead tool this deployment offers (`bash` only with
 * `sandbox.allow_host_bash`), narrowed by the agent's `tools` allowlist (null = all of them), then
 * the MCP entries: `<server>__*` for every enabled server when the allowlist is null, else the
 * allowlist's `<server>__<tool>` and `<server>__*` entries of enabled servers. MCP tools are named by
 * entry, not listed, because their names are known only to a worker connected to the server.
 * With `tool_search.enabled` and any MCP entry, `tool_search` comes last: the run defers its MCP
 * tools (whatever the allowlist says, as it is how they are reached).
 */
export function resolveLeadTools(config: AppConfig, allowlist: readonly string[] | null): string[] {
  const builtIn = LEAD_TOOL_NAMES.filter((name) => (name !== 'bash' || config.sandbox.allow_host_bash) && (allowlist === null || allowlist.includes(name)));
  const enabled = (server: string | null) => server !== null && config.mcp_servers[server]?.enabled === true;
  const mcp =
    allowlist === null
      ? Object.keys(config.mcp_servers).filter(enabled).map(mcpServerPattern)
      : allowlist.filter((entry) => enabled(mcpServerOf(entry)));
  const search = config.tool_search.enabled && mcp.length > 0 ? [TOOL_SEARCH_TOOL_NAME] : [];
  return [...builtIn, ...mcp, ...search];
}
