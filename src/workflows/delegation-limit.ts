import type { ToolCall } from '../contracts';
import { TASK_TOOL_NAME } from '../contracts/tool-names';

/**
 * Appended to the lead's message when the run has no delegations left (SPEC §6.1): the model
 * learns why its `task` calls vanished and what to do instead.
 */
export const SUBAGENT_LIMIT_NOTE =
  '[SUBAGENT LIMIT REACHED] This run has used up its subagent delegation limit, so the `task` calls in this ' +
  'response were not started. Continue with the results already collected, do any remaining simple work ' +
  'directly, or summarize the remaining work instead of launching more subagents.';

/** What the delegation limit decided for one lead response. */
export interface DelegationLimitDecision {
  /** Ids of the tool calls that survive, in their original order (non-task calls always do). */
  readonly keptToolCallIds: readonly string[];
  readonly droppedTaskCallIds: readonly string[];
  /** True when the run had no delegations left: every task call was stripped and the note applies. */
  readonly limitReached: boolean;
}

/**
 * The per-response and per-run delegation limit (SPEC §6.1), pure. Keeps the first
 * `min(maxConcurrent, maxTotal - priorRunDelegations)` task calls and every other call; returns
 * null when nothing has to change.
 */
export function applyDelegationLimit(
  calls: readonly ToolCall[],
  limits: { readonly maxConcurrent: number; readonly maxTotal: number },
  priorRunDelegations: number,
): DelegationLimitDecision | null {
  const taskCalls = calls.filter((c) => c.name === TASK_TOOL_NAME);
  const remaining = Math.max(0, limits.maxTotal - priorRunDelegations);
  const allowed = Math.min(limits.maxConcurrent, remaining);
  if (taskCalls.length <= allowed) return null;
  const dropped = new Set(taskCalls.slice(allowed).map((c) => c.id));
  return {
    keptToolCallIds: calls.filter((c) => !dropped.has(c.id)).map((c) => c.id),
    droppedTaskCallIds: [...dropped],
    limitReached: remaining === 0,
  };
}
