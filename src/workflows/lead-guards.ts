import type { LeadLoopLimits, LeadModelTurn, LeadTokenBudget, RunStopReason, TokenUsage } from '../contracts';
import { EMPTY_THREAD_LOOP_STATE, hashToolCalls, MAX_PENDING_WARNINGS_PER_RUN, observeToolCalls, type ThreadLoopState } from '../middleware/loop-detection';
import { highestBudgetUse, tokenBudgetExceededMessage, tokenBudgetWarningMessage } from '../middleware/token-budget';
import { textHash } from './text-hash';

/** A guard warning for the lead's next request only. */
export interface LeadGuardWarning {
  readonly name: 'loop_warning' | 'budget_warning';
  readonly text: string;
}

/** What the guards remember over one lead run (workflow state, never shared between runs). */
export interface LeadGuardState {
  readonly loop: ThreadLoopState;
  readonly budgetWarned: boolean;
  /** Warnings for the next model request (at most 4, newest kept). */
  readonly pending: readonly LeadGuardWarning[];
}

export const INITIAL_LEAD_GUARDS: LeadGuardState = { loop: EMPTY_THREAD_LOOP_STATE, budgetWarned: false, pending: [] };

/** The run's guard limits (null = that guard is off). */
export interface LeadGuardLimits {
  readonly tokenBudget: LeadTokenBudget | null;
  readonly loop: LeadLoopLimits | null;
}

/** What one lead response means for the run. */
export type LeadGuardVerdict =
  /** The model call finally failed: the run fails with the provider's message. */
  | { readonly kind: 'failed'; readonly error: string }
  /** The run stops here: tool calls stripped, `note` appended, this message is the final answer. */
  | { readonly kind: 'stop'; readonly stopReason: RunStopReason; readonly note: string | null }
  | { readonly kind: 'continue' };

const LENGTH_FINISHES = new Set(['length', 'max_tokens']);
const SAFETY_FINISHES = new Set(['content_filter', 'refusal', 'safety']);

/**
 * Decides what one lead response means (pure), in the SPEC §6 order of the subagent chain: a final
 * model failure (the error fallback marker) fails the run; a response cut by the model's length
 * limit or stopped by a safety filter ends it (`model_length_capped`, `safety_capped`); then the
 * token budget over the run's usage (warn once at its threshold, at the hard stop strip the calls
 * and force a final answer: `token_capped`); then loop detection over the tool calls (warn, then
 * `loop_capped`). Warnings are queued for the next request only.
 */
export function decideLeadGuards(
  state: LeadGuardState,
  step: Pick<LeadModelTurn, 'errorFallback' | 'finishReason' | 'toolCalls'>,
  runUsage: TokenUsage | null,
  limits: LeadGuardLimits,
): { readonly state: LeadGuardState; readonly verdict: LeadGuardVerdict } {
  if (step.errorFallback) return { state, verdict: { kind: 'failed', error: step.errorFallback.detail } };
  const finish = step.finishReason ?? '';
  if (LENGTH_FINISHES.has(finish)) return { state, verdict: { kind: 'stop', stopReason: 'model_length_capped', note: null } };
  if (SAFETY_FINISHES.has(finish)) return { state, verdict: { kind: 'stop', stopReason: 'safety_capped', note: null } };
  // Guards act on tool-calling responses: a final answer already ends the run.
  if (step.toolCalls.length === 0) return { state, verdict: { kind: 'continue' } };

  let next = state;
  if (limits.tokenBudget !== null && runUsage !== null && runUsage.total_tokens > 0) {
    const use = highestBudgetUse({ input: runUsage.input_tokens, output: runUsage.output_tokens, total: runUsage.total_tokens }, limits.tokenBudget);
    if (use.fraction >= limits.tokenBudget.hard_stop_threshold) {
      return { state: next, verdict: { kind: 'stop', stopReason: 'token_capped', note: tokenBudgetExceededMessage(use) } };
    }
    if (use.fraction >= limits.tokenBudget.warn_threshold && !next.budgetWarned) {
      next = { ...next, budgetWarned: true, pending: queue(next.pending, { name: 'budget_warning', text: tokenBudgetWarningMessage(use) }) };
    }
  }
  if (limits.loop !== null) {
    const observed = observeToolCalls(next.loop, step.toolCalls, hashToolCalls(step.toolCalls, textHash), limits.loop);
    next = { ...next, loop: observed.state };
    if (observed.action.kind === 'stop') return { state: next, verdict: { kind: 'stop', stopReason: 'loop_capped', note: observed.action.message } };
    if (observed.action.kind === 'warn') next = { ...next, pending: queue(next.pending, { name: 'loop_warning', text: observed.action.message }) };
  }
  return { state: next, verdict: { kind: 'continue' } };
}

/** Adds a warning like the subagent guards' queue does: no duplicate texts, the newest kept, at most the per-run cap. */
function queue(pending: readonly LeadGuardWarning[], warning: LeadGuardWarning): LeadGuardWarning[] {
  return [...pending.filter((w) => w.text !== warning.text), warning].slice(-MAX_PENDING_WARNINGS_PER_RUN);
}
