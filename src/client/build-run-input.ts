import { z } from 'zod';
import type { AppConfig, TokenBudgetConfig } from '../config';
import { resolveLeadTokenBudget } from '../config/token-budgets';
import { isValidThreadId, type LeadLoopLimits, type LeadRunInput, type LeadTokenBudget } from '../contracts';
import { leadAgentNames, NO_MANAGED_DEFINITIONS, resolveCatalog, resolveLeadAgent, resolveLeadTools, type ManagedDefinitions } from '../registry';

/** Hard ceiling of per-response `task` calls, whatever the config or request says. */
export const MAX_CONCURRENT_CEILING = 64;
/** Executions of one task when workers are lost mid-task. */
export const DEFAULT_MAX_TASK_ATTEMPTS = 3;
/** The lead agent used when a run names none and config defines no `default` agent. */
export const DEFAULT_AGENT_NAME = 'default';
const DEFAULT_LEAD_MAX_TURNS = 50;
/** How long the default lead (no `agents.default`) waits for an answer to its question: a day. */
const DEFAULT_CLARIFICATION_TIMEOUT_SECONDS = 86_400;

/** What a caller asks for when starting a lead run. */
export const RunRequestSchema = z.strictObject({
  message: z.string().trim().min(1, 'must not be empty'),
  // The thread id names the thread's workspace folder, so it must satisfy the workspace's rule.
  threadId: z.string().refine(isValidThreadId, 'must be 1-128 characters: letters, digits, _ . - (starting with a letter or digit)'),
  runId: z.string().trim().min(1),
  userId: z.string().trim().min(1).default('default'),
  agentName: z.string().trim().min(1).optional(),
  modelName: z.string().trim().min(1).optional(),
  /** Per-response `task` limit requested for this run; never above the workers' `max_running`. */
  maxConcurrent: z.number().int().min(1).optional(),
  /** Per-run `task` limit requested for this run; clamped to 1..50. */
  maxTotal: z.number().int().optional(),
});
export type RunRequest = z.input<typeof RunRequestSchema>;

/**
 * Resolves everything a run needs from the frozen config and the stored definitions into the
 * workflow input snapshot (limits, model, catalog, caller policy), so the workflow never reads
 * mutable configuration afterwards.
 * @throws Error naming the field when the request or the resolved model is invalid.
 */
export function buildLeadRunInput(
  config: AppConfig,
  rawRequest: RunRequest,
  managed: ManagedDefinitions = NO_MANAGED_DEFINITIONS,
): LeadRunInput {
  const request = RunRequestSchema.parse(rawRequest);
  const agentName = request.agentName ?? DEFAULT_AGENT_NAME;
  const agent = resolveLeadAgent(agentName, config, managed.leadAgents);
  if (request.agentName !== undefined && agent === null) {
    const known = leadAgentNames(config, managed.leadAgents).join(', ') || 'none';
    throw new Error(`agent: "${agentName}" is not defined in config.yaml \`agents\` or the agent store (defined: ${known})`);
  }
  const modelName = request.modelName ?? agent?.model ?? config.default_model ?? config.models[0]?.name;
  if (modelName === undefined) throw new Error('model: no chat model is configured (add one under `models` in config.yaml)');
  if (!config.models.some((m) => m.name === modelName)) throw new Error(`model: "${modelName}" is not a configured model`);
  const maxRunning = config.subagent_runtime.max_running;
  const allowedSubagents = agent?.allowed_subagents ?? null;
  return {
    threadId: request.threadId,
    runId: request.runId,
    userId: request.userId,
    agentName,
    modelName,
    message: request.message,
    limits: {
      maxConcurrent: Math.max(1, Math.min(request.maxConcurrent ?? maxRunning, maxRunning, MAX_CONCURRENT_CEILING)),
      maxTotal: Math.max(1, Math.min(request.maxTotal ?? config.subagents.max_total_per_run, 50)),
      maxLeadTurns: agent?.max_turns ?? DEFAULT_LEAD_MAX_TURNS,
      queueTimeoutSeconds: config.subagent_runtime.queue_timeout_seconds,
      pollingGraceSeconds: config.subagent_runtime.polling_grace_seconds,
      heartbeatTimeoutSeconds: config.subagent_runtime.heartbeat_timeout_seconds,
      maxTaskAttempts: DEFAULT_MAX_TASK_ATTEMPTS,
      leadToolTimeoutSeconds: config.lead_tools.timeout_seconds,
      leadToolHeartbeatTimeoutSeconds: config.lead_tools.heartbeat_timeout_seconds,
      leadTokenBudget: leadTokenBudget(config, agent?.token_budget ?? null),
      leadLoopDetection: leadLoopLimits(config),
      historyEventLimit: config.lead_runs.history_event_limit,
      clarificationTimeoutSeconds: agent?.clarification_timeout_seconds ?? DEFAULT_CLARIFICATION_TIMEOUT_SECONDS,
      maxTaskExtensionSeconds: config.subagent_runtime.max_task_extension_seconds,
    },
    allowedSubagents,
    hostBashAllowed: config.sandbox.allow_host_bash,
    availableSkills: agent?.skills ?? null,
    catalog: resolveCatalog(config, allowedSubagents, managed.subagents),
    leadTools: resolveLeadTools(config, agent?.tools ?? null),
    modelSteps: config.lead_runs.model_steps,
  };
}

/** The lead's token budget for the run, or null when the resolved budget is disabled. */
function leadTokenBudget(config: AppConfig, agentBudget: TokenBudgetConfig | null): LeadTokenBudget | null {
  const budget = resolveLeadTokenBudget(config, agentBudget);
  if (!budget.enabled) return null;
  const { enabled: _enabled, ...limits } = budget;
  return { enabled: true, ...limits };
}

/** Loop detection over the lead's responses, or null when `loop_detection.enabled` is off. */
function leadLoopLimits(config: AppConfig): LeadLoopLimits | null {
  const { enabled, max_tracked_threads: _threads, ...limits } = config.loop_detection;
  return enabled ? limits : null;
}
