import { ActivityFailure, CancelledFailure, isCancellation, TimeoutFailure } from '@temporalio/workflow';
import type { ExecutionOutcome } from './task-outcome';

/** Turns what a failed activity call (`runSubagent`, `runLeadTool`) threw into an {@link ExecutionOutcome}. */
export function classifyActivityFailure(err: unknown): Exclude<ExecutionOutcome, { kind: 'result' }> {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof TimeoutFailure && cause.timeoutType !== undefined) {
    return { kind: 'timeout', timeoutType: cause.timeoutType };
  }
  if (cause instanceof CancelledFailure || isCancellation(err)) return { kind: 'cancelled' };
  const message = cause instanceof Error ? cause.message : String(cause);
  return { kind: 'error', message: message || 'Subagent execution failed' };
}

/** The most specific message of a failure: the cause of an activity failure rather than its wrapper. */
export function failureMessage(err: unknown): string {
  const cause = err instanceof ActivityFailure && err.cause ? err.cause : err;
  return cause instanceof Error ? cause.message : String(cause);
}
