import type { StructuredToolInterface } from '@langchain/core/tools';
import { buildLeadRunInput } from '../client';
import type { LoadedConfig } from '../config';
import type { ToolsListOutput, ToolsListServer, ToolsListTool } from '../contracts';
import { bindLeadTools, McpServerState, type McpToolEntry, type McpToolRegistry } from '../mcp';
import { askClarificationToolSpec, batchTaskToolSpec, taskToolSpec, type FunctionToolSpec } from '../prompts';
import { availableSubagentNames, leadTaskToolOptions, resolveSubagent, subagentDeferredTools, subagentHasTool, type ManagedDefinitions } from '../registry';
import { createAgentTools, ThreadWorkspace, toolSearchToolSpec } from '../tools';
import { CliExit, EXIT_USAGE } from './load-cli-config';

/** Whose tools to list: a lead agent (absent name = the one a run without `--agent` gets) or a subagent. */
export type ToolsListTarget = { readonly kind: 'lead'; readonly name?: string } | { readonly kind: 'subagent'; readonly name: string };

// Tool objects are built only to read their names and descriptions; nothing touches this folder.
const LISTING_THREAD = 'tools-list';

/**
 * Every tool an agent would have with the current config and this process's MCP connections
 * (`deerflow tools list`): the lead's through the resolution a run uses at start (`buildLeadRunInput`)
 * and the binding of `leadModelStep`'s first step, a subagent's through the same allow/deny lists
 * `runSubagent` applies. With `tool_search.enabled` the MCP tools are `deferred` and `tool_search` is listed.
 * @throws {@link CliExit} (usage) for an unknown agent or subagent.
 */
export function listAgentTools(loaded: LoadedConfig, target: ToolsListTarget, managed: ManagedDefinitions, mcp: McpToolRegistry): ToolsListOutput {
  const { builtIn, mcpTools, name } = target.kind === 'lead' ? leadTools(loaded, target.name, managed, mcp) : subagentTools(loaded, target.name, managed, mcp);
  return {
    agent: { kind: target.kind, name },
    tools: [
      ...builtIn.map((t): ToolsListTool => ({ name: t.name, source: 'builtin', server: null, binding: 'bound', description: firstLine(t.description) })),
      ...mcpTools.map(({ entry: e, binding }): ToolsListTool => ({ name: e.name, source: 'mcp', server: e.server, binding, description: firstLine(e.description) })),
    ],
    mcp_servers: mcp.statuses().map((s): ToolsListServer => ({
      name: s.server,
      transport: loaded.config.mcp_servers[s.server]?.transport ?? 'stdio',
      status: s.state === McpServerState.Connected ? 'connected' : 'failed',
      reason: s.state === McpServerState.Connected ? null : (s.reason ?? s.state),
      tools: mcpTools.filter(({ entry }) => entry.server === s.server).length,
    })),
  };
}

interface AgentToolSet {
  readonly name: string;
  readonly builtIn: ReadonlyArray<{ readonly name: string; readonly description: string }>;
  readonly mcpTools: ReadonlyArray<{ readonly entry: McpToolEntry; readonly binding: ToolsListTool['binding'] }>;
}

function leadTools(loaded: LoadedConfig, agentName: string | undefined, managed: ManagedDefinitions, mcp: McpToolRegistry): AgentToolSet {
  const { config } = loaded;
  let input;
  try {
    input = buildLeadRunInput(config, { message: 'tools list', threadId: LISTING_THREAD, runId: LISTING_THREAD, agentName }, managed);
  } catch (err) {
    throw new CliExit(err instanceof Error ? err.message : String(err), EXIT_USAGE);
  }
  const task = leadTaskToolOptions(config, input, managed);
  const delegation = task === null ? [] : [specTool(taskToolSpec(task))];
  const batches = task !== null && config.subagent_batches.enabled ? [specTool(batchTaskToolSpec({ subagentNames: task.subagentNames, maxItems: config.subagent_batches.max_items_per_batch }))] : [];
  const own = builtInTools(loaded, input.leadTools);
  // A new run has promoted nothing yet.
  const binding = bindLeadTools(input.leadTools, mcp.entries(), []);
  const search = binding.searchable.length > 0 ? [specTool(toolSearchToolSpec(config.tool_search.max_results))] : [];
  return {
    name: input.agentName,
    // The order `leadModelStep` binds them in.
    builtIn: [...delegation, ...batches, specTool(askClarificationToolSpec()), ...own, ...search],
    mcpTools: [...binding.bound.map((entry) => ({ entry, binding: 'bound' as const })), ...binding.deferred.map((entry) => ({ entry, binding: 'deferred' as const }))],
  };
}

function subagentTools(loaded: LoadedConfig, name: string, managed: ManagedDefinitions, mcp: McpToolRegistry): AgentToolSet {
  const def = resolveSubagent(name, loaded.config, managed.subagents);
  if (def === null) {
    const available = availableSubagentNames(loaded.config, managed.subagents).join(', ');
    throw new CliExit(`Unknown subagent type '${name}'. Available: ${available}`, EXIT_USAGE);
  }
  const deferred = subagentDeferredTools(loaded.config, def, mcp.entries());
  const builtIn = builtInTools(loaded, null).filter((t) => subagentHasTool(def, t.name));
  if (deferred === null) return { name: def.name, builtIn, mcpTools: mcp.entries().filter((e) => subagentHasTool(def, e.name)).map((entry) => ({ entry, binding: 'bound' })) };
  return {
    name: def.name,
    builtIn: [...builtIn, specTool(toolSearchToolSpec(loaded.config.tool_search.max_results))],
    mcpTools: deferred.map((entry) => ({ entry, binding: 'deferred' })),
  };
}

function builtInTools(loaded: LoadedConfig, names: readonly string[] | null): StructuredToolInterface[] {
  const { config } = loaded;
  return createAgentTools({ workspace: new ThreadWorkspace(config.store.data_dir, LISTING_THREAD), sandbox: config.sandbox, webFetch: config.web_fetch, names });
}

function specTool(spec: FunctionToolSpec): { name: string; description: string } {
  return { name: spec.function.name, description: spec.function.description };
}

function firstLine(text: string): string {
  return (text.split('\n').find((l) => l.trim() !== '') ?? '').trim();
}
