import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { HumanMessage, type BaseMessage } from '@langchain/core/messages';
import type { AgentMiddleware } from 'langchain';
import type { AppConfig } from '../../config/schema';
import type { StopReason } from '../../contracts';
import type { SkillToolRule } from '../skill-tool-policy';
import { currentDateReminder, type CurrentDateReminderOptions } from './date-context-middleware';
import { deferredToolsMiddleware, type DeferredToolsMiddlewareOptions } from './deferred-tools-middleware';
import { durableContextMiddleware } from './durable-context-middleware';
import { foldNodeHooks } from './fold-node-hooks';
import { inputSanitizationMiddleware } from './input-sanitization-middleware';
import { llmErrorHandlingMiddleware, type LlmErrorHandlingMiddlewareOptions } from './llm-error-handling-middleware';
import { LOOP_DETECTION_MIDDLEWARE_NAME, loopDetectionMiddleware } from './loop-detection-middleware';
import { systemMessageCoalescingMiddleware } from './system-message-coalescing-middleware';
import { summarizationMiddleware } from './summarization-middleware';
import { skillToolPolicyMiddleware } from './skill-tool-policy-middleware';
import { resolveSubagentTokenBudget, TOKEN_BUDGET_MIDDLEWARE_NAME, tokenBudgetMiddleware } from './token-budget-middleware';
import { toolErrorHandlingMiddleware } from './tool-error-handling-middleware';
import { toolResultSanitizationMiddleware } from './tool-result-sanitization-middleware';

/** Name of the middleware that runs the chain's node hooks (graph nodes `SubagentHooksMiddleware.before_model` etc.). */
export const SUBAGENT_HOOKS_MIDDLEWARE_NAME = 'SubagentHooksMiddleware';

/** A guard that can say why it ended a run early (duck-typed: any middleware with this method). */
export interface StopReasonGuard {
  consumeStopReason(runId: string | null): StopReason | null;
}

export interface SubagentChainOptions {
  readonly config: AppConfig;
  readonly agentName: string;
  /** Retry tuning of the LLM error handler (tests shorten the waits). */
  readonly llmRetry?: Omit<LlmErrorHandlingMiddlewareOptions, 'sleep'>;
  /**
   * The model that writes compaction summaries, or where to find it at each compaction; required
   * when `summarization.enabled`.
   */
  readonly summaryModel?: BaseChatModel | (() => BaseChatModel);
  /** The skills the subagent may load, whose `allowed_tools` apply while they are active. @default [] */
  readonly skills?: readonly SkillToolRule[];
  /** The subagent's tools behind `tool_search` (`tool_search.enabled`); absent: every tool is bound. */
  readonly deferredTools?: Omit<DeferredToolsMiddlewareOptions, 'recordPromotions'>;
}

/**
 * The input of a fresh subagent execution: the task message, then the hidden date reminder
 * (SPEC §6.7) the chain's coalescer folds into the leading system message. It comes with the
 * input rather than from a `beforeAgent` hook so the chain has no `beforeAgent` graph step.
 * @throws RangeError for an unknown `timeZone`
 */
export function subagentInputMessages(taskText: string, options: CurrentDateReminderOptions = {}): BaseMessage[] {
  return [new HumanMessage(taskText), currentDateReminder(options)];
}

/**
 * The subagent middleware chain, in the order SPEC §6.10 pins for the parts this project has:
 * input sanitization outermost, then tool-result sanitization (tool results are data),
 * LLM and tool error handling, the loop and token guards, durable context, the skill tool policy
 * (after the skill tracking it reads, inside the tool error handler so receipts see a refusal as an
 * error result), the deferred tools filter (when tools are deferred: promoted tools still pass the
 * skill policy, and it records promotions before summarization can drop them), summarization (when enabled), and the system-message coalescer
 * always last (innermost), so the model always receives exactly one leading system message. The
 * date reminder is not a middleware here: it comes with the input ({@link subagentInputMessages}).
 * Guards keep per-run state: a chain serves one execution at a time, and {@link resetGuards} clears
 * it before the next one (a chain built once per worker serves many, one after the other).
 *
 * The node hooks of all of them run in one middleware placed first ({@link SUBAGENT_HOOKS_MIDDLEWARE_NAME},
 * see `foldNodeHooks`), in the same order, so a turn costs one graph step per hook kind rather than
 * one per hook. The guards check responses inside the model call (their wrap hooks), so there is no
 * afterModel hook, and durable context records loaded skills in a `beforeModel` hook only when
 * summarization is on (only then do it, the skill tool policy and the deferred tools declare their
 * state keys): by default a one-turn task runs 1 step (`model_request`), as the plain agent does,
 * instead of 9; with summarization, 2 (`before_model` first).
 * The guards' run-level hooks (`beforeAgent`, `afterAgent`) are left out, so the
 * graph has neither step: they only clear what earlier runs of the thread left in the guards'
 * memory and forget the run's, and a chain that serves one execution at a time is reset after each.
 */
export function buildSubagentMiddleware(options: SubagentChainOptions): AgentMiddleware[] {
  const { config } = options;
  const chain: AgentMiddleware[] = [
    inputSanitizationMiddleware(),
    toolResultSanitizationMiddleware(),
    llmErrorHandlingMiddleware(options.llmRetry ?? {}),
    toolErrorHandlingMiddleware(),
  ];
  if (config.loop_detection.enabled) chain.push(loopDetectionMiddleware(config.loop_detection));
  const budget = resolveSubagentTokenBudget(config, options.agentName);
  if (budget.enabled) chain.push(tokenBudgetMiddleware(budget));
  // Loaded skills and promoted tools are recorded in state only when summarization may compact
  // their messages away.
  const recordSkills = config.summarization.enabled;
  chain.push(durableContextMiddleware({ recordSkills }), skillToolPolicyMiddleware({ skills: options.skills ?? [], recordedSkills: recordSkills }));
  if (options.deferredTools !== undefined) chain.push(deferredToolsMiddleware({ ...options.deferredTools, recordPromotions: recordSkills }));
  if (config.summarization.enabled) {
    if (options.summaryModel === undefined) throw new Error('summarization.enabled needs a summary model');
    chain.push(summarizationMiddleware({ model: options.summaryModel, trigger: config.summarization.trigger, keep: config.summarization.keep }));
  }
  chain.push(systemMessageCoalescingMiddleware());
  return foldNodeHooks(chain, { name: SUBAGENT_HOOKS_MIDDLEWARE_NAME, dropRunHooks: [LOOP_DETECTION_MIDDLEWARE_NAME, TOKEN_BUDGET_MIDDLEWARE_NAME] });
}

/** The chain's guards that report stop reasons (SPEC Appendix D: every one is asked, first wins). */
export function stopReasonGuards(chain: readonly AgentMiddleware[]): StopReasonGuard[] {
  return chain.filter((m): m is AgentMiddleware & StopReasonGuard => typeof (m as Partial<StopReasonGuard>).consumeStopReason === 'function');
}

/** A guard that can forget every run it saw (duck-typed, like {@link StopReasonGuard}). */
interface ResettableGuard {
  reset(): void;
}

/**
 * Clears what the chain's guards remember (threads' tool calls, runs' budgets and stop reasons), so
 * the next execution starts as it would on a new chain. Call it once an execution is over and its
 * stop reason consumed.
 */
export function resetGuards(chain: readonly AgentMiddleware[]): void {
  for (const m of chain as readonly Partial<ResettableGuard>[]) m.reset?.();
}

/** The first stop reason, in chain order, any guard recorded for the run. Every guard's is consumed. */
export function consumeStopReason(guards: readonly StopReasonGuard[], runId: string | null): StopReason | null {
  const reasons = guards.map((guard) => guard.consumeStopReason(runId));
  return reasons.find((reason) => reason !== null) ?? null;
}
