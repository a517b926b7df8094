import { Command, type Option } from 'commander';
import { formatPromptDate } from '../activities/prompt-date';
import { buildLeadRunInput } from '../client/build-run-input';
import type { LoadedConfig } from '../config';
import { leadTaskToolOptions, renderLeadSystemPrompt, renderSubagentSystemPrompt } from '../prompts';
import { availableSubagentNames, resolveSubagent } from '../registry';
import { taskToolSpec } from '../tools';
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
function runInput(loaded: LoadedConfig, agentName: string | undefined, maxConcurrent: number | undefined, maxTotal: number | undefined) {
  try {
    return buildLeadRunInput(loaded.config, {
      // Placeholders: the prompt depends on neither the message nor the ids.
      message: 'prompt preview',
      threadId: 'prompt-preview',
      runId: 'prompt-preview',
      agentName,
      maxConcurrent,
      maxTotal,
    });
  } catch (err) {
    throw new CliExit(err instanceof Error ? err.message : String(err), EXIT_USAGE);
  }
}

/**
 * `deerflow prompt lead`: the lead's system message for the current config, then the `task` tool
 * description. Limits and catalog come from `buildLeadRunInput`, the resolution a real run uses,
 * and the text from `renderLeadSystemPrompt`, the function `leadModelStep` uses.
 */
export function promptLeadText(loaded: LoadedConfig, options: PromptLeadOptions, now: Date = new Date()): string {
  const maxConcurrent = parseLimit('--max-concurrent', options.maxConcurrent);
  const maxTotal = parseLimit('--max-total', options.maxTotal);
  const input = runInput(loaded, options.agent, maxConcurrent, maxTotal);
  const system = renderLeadSystemPrompt(loaded.config, input, formatPromptDate(now));
  const tool = leadTaskToolOptions(loaded.config, input);
  const description = tool ? taskToolSpec(tool).function.description : '(none: this agent has no subagents, so no `task` tool is bound)';
  return `${system}\n\n${TASK_TOOL_HEADING}\n${description}\n`;
}

/**
 * `deerflow prompt subagent NAME`: the subagent's system prompt with the report contract, as the
 * subagent activity assembles it.
 */
export function promptSubagentText(loaded: LoadedConfig, name: string): string {
  const def = resolveSubagent(name, loaded.config);
  if (def === null) {
    throw new CliExit(`Unknown subagent type '${name}'. Available: ${availableSubagentNames(loaded.config).join(', ')}`, EXIT_USAGE);
  }
  return `${renderSubagentSystemPrompt(def.systemPrompt, { receiptsEnabled: loaded.config.verification.receipts_enabled })}\n`;
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
    .action((opts: PromptLeadOptions & { config?: string }) => {
      process.stdout.write(promptLeadText(loadCliConfig(opts.config), opts));
    });
  prompt
    .command('subagent')
    .description("print a subagent's system prompt")
    .argument('<name>', 'subagent type, e.g. general-purpose')
    .addOption(config)
    .action((name: string, opts: { config?: string }) => {
      const loaded = loadCliConfig(opts.config);
      const text = promptSubagentText(loaded, name);
      if (!availableSubagentNames(loaded.config).includes(name)) {
        // Still printed (the prompt is well defined), but the lead would not be offered it here.
        process.stderr.write(`note: '${name}' is not available to the lead on this host (sandbox.allow_host_bash is false)\n`);
      }
      process.stdout.write(text);
    });
  return prompt;
}
