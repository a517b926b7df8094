import { ActivityFailure, isCancellation, TimeoutFailure } from '@temporalio/workflow';
import {
  applicationFailureOf,
  BATCH_LEASE_WAIT_TIMEOUT_TYPE,
  isApplicationFailureOf,
  isCancelledFailure,
  TASK_DEADLINE_EXCEEDED_TYPE,
  WORKER_SHUTDOWN_TYPE,
} from '../contracts/failure-types';
import type { SubagentProgress } from '../contracts/subagent-progress';
import { inputSchemas } from './input-schemas';
import type { ExecutionOutcome } from './execution-outcome';

/**
 * What a subagent execution that timed out reported last: an execution past its own deadline puts
 * it in its failure's details; Temporal's own timeouts leave the last heartbeat's (throttled by the
 * SDK, and also kept on the task by signal `taskProgress`). Old histories' heartbeats lack the
 * model and evidence; other activities report none.
 */
function reportedProgress(details: unknown): { progress?: SubagentProgress } {
  // Only an execution that ran reports progress: the schema is loaded then, never for a clean result.
  if (details === undefined || details === null) return {};
  const parsed = inputSchemas.subagentProgress().safeParse(details);
  return parsed.success ? { progress: parsed.data } : {};
}

/** Turns what a failed activity call (`runSubagent`, `runLeadTool`) threw into an {@link ExecutionOutcome}. */
export function classifyActivityFailure(err: unknown): Exclude<ExecutionOutcome, { kind: 'result' }> {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof TimeoutFailure && cause.timeoutType !== undefined) {
    return { kind: 'timeout', timeoutType: cause.timeoutType, ...reportedProgress(cause.lastHeartbeatDetails) };
  }
  // The execution hit its own extendable deadline: the same verdict as Temporal's execution timeout.
  const deadline = applicationFailureOf(err, TASK_DEADLINE_EXCEEDED_TYPE);
  if (deadline !== null) return { kind: 'timeout', timeoutType: 'START_TO_CLOSE', ...reportedProgress(deadline.details?.[0]) };
  // A batch item that found no free lease of its batch in time never reached a model: the same
  // verdict as a queue timeout.
  if (isApplicationFailureOf(err, BATCH_LEASE_WAIT_TIMEOUT_TYPE)) return { kind: 'timeout', timeoutType: 'SCHEDULE_TO_START' };
  if (isApplicationFailureOf(err, WORKER_SHUTDOWN_TYPE)) return { kind: 'worker_stopped' };
  if (isCancelledFailure(cause) || isCancellation(err)) return { kind: 'cancelled' };
  const message = cause instanceof Error ? cause.message : String(cause);
  return { kind: 'error', message: message || 'Subagent execution failed' };
}

/** The most specific message of a failure: the cause of an activity failure rather than its wrapper. */
export function failureMessage(err: unknown): string {
  const cause = err instanceof ActivityFailure && err.cause ? err.cause : err;
  return cause instanceof Error ? cause.message : String(cause);
}
