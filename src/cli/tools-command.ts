import { Command, type Option } from 'commander';
import type { LoadedConfig } from '../config';
import type { ToolsListOutput } from '../contracts';
import { McpToolRegistry } from '../mcp';
import { readManagedDefinitions } from '../registry';
import { listAgentTools, type ToolsListTarget } from './agent-tools-listing';
import { CliExit, EXIT_USAGE, loadCliConfig } from './load-cli-config';
import { withStores } from './with-stores';

/** Options of `deerflow tools list`. */
export interface ToolsListOptions {
  readonly agent?: string;
  readonly subagent?: string;
  readonly json?: boolean;
}

/**
 * `deerflow tools list`: connects to the enabled MCP servers the way a worker does (first attempt,
 * bounded by each server's `timeout_seconds`), lists the agent's tools and closes the connections.
 */
export async function toolsListText(loaded: LoadedConfig, options: ToolsListOptions): Promise<string> {
  if (options.agent !== undefined && options.subagent !== undefined) throw new CliExit('--agent and --subagent cannot be used together', EXIT_USAGE);
  const target: ToolsListTarget = options.subagent !== undefined ? { kind: 'subagent', name: options.subagent } : { kind: 'lead', name: options.agent };
  const managed = await withStores(loaded, (stores) => readManagedDefinitions(stores.agents));
  // Retries are not reported here: the status column says what failed.
  const mcp = McpToolRegistry.fromConfig(loaded.config, { configDir: loaded.dir, warn: () => undefined });
  try {
    await mcp.start();
    const listing = listAgentTools(loaded, target, managed, mcp);
    return options.json === true ? `${JSON.stringify(listing, null, 2)}\n` : formatToolsList(listing);
  } finally {
    await mcp.close();
  }
}

/** The human-readable listing: one line per tool, then one per MCP server with its status. */
export function formatToolsList(listing: ToolsListOutput): string {
  const who = listing.agent.kind === 'lead' ? `Lead agent ${listing.agent.name}` : `Subagent ${listing.agent.name}`;
  const width = Math.max(4, ...listing.tools.map((t) => t.name.length));
  const lines = [`${who}: ${listing.tools.length} tool${listing.tools.length === 1 ? '' : 's'}`];
  for (const tool of listing.tools) {
    const source = tool.server === null ? 'built-in' : `mcp:${tool.server}`;
    lines.push(`  ${tool.name.padEnd(width)}  ${tool.binding.padEnd(8)}  ${source.padEnd(16)}  ${tool.description}`.trimEnd());
  }
  if (listing.mcp_servers.length > 0) {
    lines.push('', 'MCP servers:');
    for (const server of listing.mcp_servers) {
      const status = server.status === 'connected' ? `connected, ${server.tools} tool${server.tools === 1 ? '' : 's'} for this agent` : `failed: ${server.reason ?? 'unknown'}`;
      lines.push(`  ${server.name} (${server.transport}): ${status}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The `tools` command group; `config` is the shared `--config` option. */
export function toolsCommand(config: Option): Command {
  const tools = new Command('tools').description("the tools agents have: built-in and MCP servers'");
  tools
    .command('list')
    .description('list every tool an agent would have, with each MCP server’s status')
    .addOption(config)
    .option('--agent <name>', 'lead agent definition (default: the one runs get without --agent)')
    .option('--subagent <name>', 'subagent type, e.g. general-purpose')
    .option('--json', 'print one JSON object (schema: ToolsListOutputSchema)', false)
    .action(async (opts: ToolsListOptions & { config?: string }) => {
      process.stdout.write(await toolsListText(loadCliConfig(opts.config), opts));
    });
  return tools;
}
