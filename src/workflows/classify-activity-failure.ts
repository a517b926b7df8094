import { ActivityFailure, ApplicationFailure, CancelledFailure, isCancellation, TimeoutFailure } from '@temporalio/workflow';
import { TASK_DEADLINE_EXCEEDED_TYPE } from '../contracts/failure-types';
import type { ExecutionOutcome } from './task-outcome';

/** Turns what a failed activity call (`runSubagent`, `runLeadTool`) threw into an {@link ExecutionOutcome}. */
export function classifyActivityFailure(err: unknown): Exclude<ExecutionOutcome, { kind: 'result' }> {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof TimeoutFailure && cause.timeoutType !== undefined) {
    return { kind: 'timeout', timeoutType: cause.timeoutType };
  }
  // The execution hit its own extendable deadline: the same verdict as Temporal's execution timeout.
  if (cause instanceof ApplicationFailure && cause.type === TASK_DEADLINE_EXCEEDED_TYPE) return { kind: 'timeout', timeoutType: 'START_TO_CLOSE' };
  if (cause instanceof CancelledFailure || isCancellation(err)) return { kind: 'cancelled' };
  const message = cause instanceof Error ? cause.message : String(cause);
  return { kind: 'error', message: message || 'Subagent execution failed' };
}

/** The most specific message of a failure: the cause of an activity failure rather than its wrapper. */
export function failureMessage(err: unknown): string {
  const cause = err instanceof ActivityFailure && err.cause ? err.cause : err;
  return cause instanceof Error ? cause.message : String(cause);
}
