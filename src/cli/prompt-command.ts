import { Command, type Option } from 'commander';
import { buildLeadRunInput } from '../client';
import type { LoadedConfig } from '../config';
import { buildDeferredToolsSection, formatPromptDate, renderSubagentSystemPrompt, taskToolSpec } from '../prompts';
import {
  availableSubagentNames,
  leadTaskToolOptions,
  NO_MANAGED_DEFINITIONS,
  readManagedDefinitions,
  renderLeadSystemPrompt,
  resolveSubagent,
  subagentDeferredTools,
  type ManagedDefinitions,
} from '../registry';
import { buildSkillsSection, loadSubagentSkills } from '../skills';
import { withStores } from './with-stores';
import { bindLeadTools, McpToolRegistry, type McpToolEntry } from '../mcp';
import { CliExit, EXIT_USAGE, loadCliConfig } from './load-cli-config';

/** Printed between the system message and the `task` tool description. */
export const TASK_TOOL_HEADING = '===== `task` tool description (sent with the tool, not in the system message) =====';

export interface PromptLeadOptions {
  readonly agent?: string;
  readonly maxConcurrent?: string;
  readonly maxTotal?: string;
}

/**
 * Parses a limit option. Commander hands us raw strings; anything but a positive integer is a
 * usage error naming the option, rather than a silent fallback to the config value.
 */
function parseLimit(option: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw.trim());
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(value) || value < 1) {
    throw new CliExit(`${option} must be a positive integer, got '${raw}'`, EXIT_USAGE);
  }
  return value;
}

/** The run input a real run would get; its errors (unknown agent, no model) are usage errors here. */
function runInput(
  loaded: LoadedConfig,
  managed: ManagedDefinitions,
  agentName: string | undefined,
  maxConcurrent: number | undefined,
  maxTotal: number | undefined,
) {
  try {
    return buildLeadRunInput(loaded.config, {
      // Placeholders: the prompt depends on neither the message nor the ids.
      message: 'prompt preview',
      threadId: 'prompt-preview',
      runId: 'prompt-preview',
      agentName,
      maxConcurrent,
      maxTotal,
    }, managed);
  } catch (err) {
    throw new CliExit(err instanceof Error ? err.message : String(err), EXIT_USAGE);
  }
}

/**
 * `deerflow prompt lead`: the lead's system message for the current config, then the `task` tool
 * description. Limits and catalog come from `buildLeadRunInput`, the resolution a real run uses,
 * and the text from `renderLeadSystemPrompt`, the function `leadModelStep` uses. `mcpTools` are the
 * tools of the MCP servers this process connected to.
 */
export function promptLeadText(
  loaded: LoadedConfig,
  options: PromptLeadOptions,
  now: Date = new Date(),
  managed: ManagedDefinitions = NO_MANAGED_DEFINITIONS,
  mcpTools: readonly McpToolEntry[] = [],
): string {
  const maxConcurrent = parseLimit('--max-concurrent', options.maxConcurrent);
  const maxTotal = parseLimit('--max-total', options.maxTotal);
  const input = runInput(loaded, managed, options.agent, maxConcurrent, maxTotal);
  // New runs offer `ask_clarification`, so the printed prompt does too; MCP entries list the
  // connected tools they allow as `leadModelStep` lists them: bound, or deferred (nothing promoted yet).
  const binding = bindLeadTools(input.leadTools, mcpTools, []);
  const system = renderLeadSystemPrompt(loaded.config, { ...input, clarification: true, leadTools: binding.names, deferredTools: binding.deferred }, formatPromptDate(now), managed);
  const tool = leadTaskToolOptions(loaded.config, input, managed);
  const description = tool ? taskToolSpec(tool).function.description : '(none: this agent has no subagents, so no `task` tool is bound)';
  return `${system}\n\n${TASK_TOOL_HEADING}\n${description}\n`;
}

/**
 * `deerflow prompt subagent NAME`: the subagent's system prompt with the report contract, as the
 * subagent activity assembles it. `mcpTools` are the tools of the MCP servers this process
 * connected to (they matter with `tool_search.enabled`: the subagent's are listed as deferred).
 */
export async function promptSubagentText(
  loaded: LoadedConfig,
  name: string,
  options: { userId?: string; managed?: ManagedDefinitions; mcpTools?: readonly McpToolEntry[] } = {},
): Promise<string> {
  const managed = options.managed ?? NO_MANAGED_DEFINITIONS;
  const def = resolveSubagent(name, loaded.config, managed.subagents);
  if (def === null) {
    const available = availableSubagentNames(loaded.config, managed.subagents).join(', ');
    throw new CliExit(`Unknown subagent type '${name}'. Available: ${available}`, EXIT_USAGE);
  }
  const skills = await loadSubagentSkills({ dataDir: loaded.config.store.data_dir, userId: options.userId, allowlist: def.skills });
  const text = renderSubagentSystemPrompt(def.systemPrompt, {
    receiptsEnabled: loaded.config.verification.receipts_enabled,
    skillsSection: buildSkillsSection(skills),
    deferredToolsSection: buildDeferredToolsSection(subagentDeferredTools(loaded.config, def, options.mcpTools ?? []) ?? []),
  });
  return `${text}\n`;
}

/** The `prompt` command group; `config` is the shared `--config` option. */
export function promptCommand(config: Option): Command {
  const prompt = new Command('prompt').description('print the prompts the models are sent for the current config');
  prompt
    .command('lead')
    .description("print the lead's system message and the `task` tool description")
    .addOption(config)
    .option('--agent <name>', 'lead agent definition from config')
    .option('--max-concurrent <n>', 'per-response `task` limit requested (capped by subagent_runtime.max_running)')
    .option('--max-total <n>', 'per-run `task` limit requested (capped at 50)')
    .action(async (opts: PromptLeadOptions & { config?: string }) => {
      const loaded = loadCliConfig(opts.config);
      const managed = await withStores(loaded, (stores) => readManagedDefinitions(stores.agents));
      const mcp = McpToolRegistry.fromConfig(loaded.config, { configDir: loaded.dir });
      try {
        await mcp.start();
        process.stdout.write(promptLeadText(loaded, opts, new Date(), managed, mcp.entries()));
      } finally {
        await mcp.close();
      }
    });
  prompt
    .command('subagent')
    .description("print a subagent's system prompt")
    .argument('<name>', 'subagent type, e.g. general-purpose')
    .addOption(config)
    .option('--user <id>', 'whose skills to list', 'default')
    .action(async (name: string, opts: { config?: string; user: string }) => {
      const loaded = loadCliConfig(opts.config);
      const managed = await withStores(loaded, (stores) => readManagedDefinitions(stores.agents));
      // MCP tools change a subagent's prompt only when they are deferred (listed in it).
      const mcp = loaded.config.tool_search.enabled ? McpToolRegistry.fromConfig(loaded.config, { configDir: loaded.dir }) : McpToolRegistry.empty();
      let text: string;
      try {
        await mcp.start();
        text = await promptSubagentText(loaded, name, { userId: opts.user, managed, mcpTools: mcp.entries() });
      } finally {
        await mcp.close();
      }
      if (!availableSubagentNames(loaded.config, managed.subagents).includes(name)) {
        // Still printed (the prompt is well defined), but the lead would not be offered it here.
        process.stderr.write(`note: '${name}' is not available to the lead on this host (sandbox.allow_host_bash is false)\n`);
      }
      process.stdout.write(text);
    });
  return prompt;
}
