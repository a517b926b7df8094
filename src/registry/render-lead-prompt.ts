import type { AppConfig } from '../config/schema';
import type { CatalogEntry, RunLimits } from '../contracts';
import { buildLeadSystemPrompt, type ListedDeferredTool, type ListedSubagent } from '../prompts';
import { NO_MANAGED_DEFINITIONS, type ManagedDefinitions } from './managed-definitions';
import { resolveLeadAgent } from './resolve-lead-agent';
import { resolveSubagent } from './resolve-subagents';

/** The part of a lead step's input the prompt depends on (a `LeadModelStepInput` fits). */
export interface LeadPromptInput {
  readonly agentName: string;
  readonly limits: Pick<RunLimits, 'maxConcurrent' | 'maxTotal'>;
  /** The run's catalog snapshot: subagents already filtered by policy and host capabilities. */
  readonly catalog: readonly Pick<CatalogEntry, 'name'>[];
  /** The lead's own tools bound for the step. @default [] */
  readonly leadTools?: readonly string[];
  /** Whether `ask_clarification` is bound for the step. @default false */
  readonly clarification?: boolean;
  /** The lead's deferred tools not promoted yet (listed, not bound). @default [] */
  readonly deferredTools?: readonly ListedDeferredTool[];
}

/** What `taskToolSpec` needs to describe the `task` tool for this step. */
export interface LeadTaskToolOptions {
  readonly subagentNames: readonly string[];
  readonly receiptsEnabled: boolean;
}

/** The run's catalog as the lead sees it; entries that no longer resolve are left out. */
export function listLeadSubagents(
  config: AppConfig,
  input: LeadPromptInput,
  managed: ManagedDefinitions = NO_MANAGED_DEFINITIONS,
): ListedSubagent[] {
  return input.catalog.flatMap((entry) => {
    const def = resolveSubagent(entry.name, config, managed.subagents);
    return def ? [{ name: def.name, description: def.description, builtin: def.source === 'builtin' }] : [];
  });
}

/**
 * The lead's system message for one model step. Pure: `leadModelStep` and `deerflow prompt lead`
 * both call it, so what the CLI prints is what the model is sent.
 */
export function renderLeadSystemPrompt(
  config: AppConfig,
  input: LeadPromptInput,
  currentDate: string,
  managed: ManagedDefinitions = NO_MANAGED_DEFINITIONS,
): string {
  return buildLeadSystemPrompt({
    agentInstructions: resolveLeadAgent(input.agentName, config, managed.leadAgents)?.system_prompt ?? null,
    maxConcurrent: input.limits.maxConcurrent,
    maxTotal: input.limits.maxTotal,
    subagents: listLeadSubagents(config, input, managed),
    receiptsEnabled: config.verification.receipts_enabled,
    currentDate,
    leadTools: input.leadTools ?? [],
    clarification: input.clarification ?? false,
    deferredTools: input.deferredTools ?? [],
  });
}

/** Options of the `task` tool bound for this step, or null when the run has no subagents (no tool). */
export function leadTaskToolOptions(
  config: AppConfig,
  input: LeadPromptInput,
  managed: ManagedDefinitions = NO_MANAGED_DEFINITIONS,
): LeadTaskToolOptions | null {
  const listed = listLeadSubagents(config, input, managed);
  if (listed.length === 0) return null;
  return { subagentNames: listed.map((s) => s.name), receiptsEnabled: config.verification.receipts_enabled };
}
