import { ActivityFailure, ApplicationFailure, CancelledFailure } from '@temporalio/common';

/**
 * Every `ApplicationFailure` type our activities and workflows throw, and the classifiers that read
 * them back. Workflow code imports this file directly: it loads only `@temporalio/common`.
 */

/** Failure type of activity errors that retrying cannot fix (bad model config, missing API key). */
export const CONFIGURATION_ERROR_TYPE = 'ConfigurationError';

/** Failure type of a subagent execution stopped by its own (extendable) deadline: the task timed out. */
export const TASK_DEADLINE_EXCEEDED_TYPE = 'TaskDeadlineExceeded';

/**
 * Failure type of an activity stopped because its worker is shutting down (a deploy, a scale-in):
 * retryable, so the execution runs again on another worker at once instead of after a heartbeat
 * timeout, and never counts as the task's own failure.
 */
export const WORKER_SHUTDOWN_TYPE = 'WorkerShutdown';

/** Failure type of a workflow started, or an activity scheduled, with input its contract refuses: no retry can fix the input. */
export const INVALID_INPUT_TYPE = 'InvalidInput';

/** Failure type of a `cancelBatch` from someone who does not own the batch (or a missing batch). */
export const BATCH_NOT_FOUND_TYPE = 'BatchNotFound';

/** Failure type of a batch store write refused as not found: retrying cannot make the row appear. */
export const BATCH_STORE_NOT_FOUND_TYPE = 'BatchStore.not_found';

/**
 * Failure type of a batch store write refused as invalid, e.g. finishing a batch `completed` while
 * an item is not terminal: the batch workflow then ends the batch `failed`.
 */
export const BATCH_STORE_INVALID_TYPE = 'BatchStore.invalid';

/**
 * Failure type of a batch item execution that waited `lease_seconds` for one of its batch's
 * running leases without getting one: it never reached a model, so it uses no attempt.
 */
export const BATCH_LEASE_WAIT_TIMEOUT_TYPE = 'BatchLeaseWaitTimeout';

/**
 * Failure type of a batch item execution the store refused to lease: the item is terminal (its
 * batch was cancelled) or a later attempt took it over. The item's stored status stands.
 */
export const BATCH_ITEM_FENCED_TYPE = 'BatchItemFenced';

/** Union of the failure types above: what {@link applicationFailureOf} can look for. */
export type FailureType =
  | typeof CONFIGURATION_ERROR_TYPE
  | typeof TASK_DEADLINE_EXCEEDED_TYPE
  | typeof WORKER_SHUTDOWN_TYPE
  | typeof INVALID_INPUT_TYPE
  | typeof BATCH_NOT_FOUND_TYPE
  | typeof BATCH_STORE_NOT_FOUND_TYPE
  | typeof BATCH_STORE_INVALID_TYPE
  | typeof BATCH_LEASE_WAIT_TIMEOUT_TYPE
  | typeof BATCH_ITEM_FENCED_TYPE;

/**
 * `name` of Temporal's `CancelledFailure`. Agent middleware matches cancellation by name, so it
 * stays free of Temporal classes and also recognises the error after a library rebuilt it.
 */
export const CANCELLED_FAILURE_NAME = 'CancelledFailure';

/**
 * The `ApplicationFailure` of `type` that `err` is, or that failed the activity call `err` reports
 * (an `ActivityFailure` carries the activity's own failure as its cause); null for anything else.
 */
export function applicationFailureOf(err: unknown, type: FailureType): ApplicationFailure | null {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  return cause instanceof ApplicationFailure && cause.type === type ? cause : null;
}

/** Whether `err` is, or reports an activity that failed with, an `ApplicationFailure` of `type`. */
export function isApplicationFailureOf(err: unknown, type: FailureType): boolean {
  return applicationFailureOf(err, type) !== null;
}

/**
 * Whether `err` is Temporal's `CancelledFailure` (an activity's cancellation reason, a cancelled
 * scope). The SDK brands its failures, so `instanceof` holds across copies of the SDK.
 */
export function isCancelledFailure(err: unknown): err is CancelledFailure {
  return err instanceof CancelledFailure;
}
