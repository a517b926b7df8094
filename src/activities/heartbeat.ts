import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { isApplicationFailureOf, isCancelledFailure, WORKER_SHUTDOWN_TYPE } from '../contracts/failure-types';

/** How often a long activity heartbeats while it waits on a model or tool. */
export const HEARTBEAT_INTERVAL_MS = 2_000;

/**
 * Runs `work` while heartbeating every few seconds, so cancellation reaches the activity and a
 * dead worker's lease expires. `work` gets the activity's cancellation signal to pass to models
 * and tools; `details()` supplies the latest progress for each heartbeat. The first heartbeat
 * waits for the interval too: the SDK sends a first heartbeat to the server at once, and work that
 * ends sooner (a one-turn task on a fast model, a store read) needs none. A local activity does not
 * heartbeat: its workflow task's timeout watches its worker.
 */
export async function withHeartbeats<T>(
  work: (signal: AbortSignal) => Promise<T>,
  details: () => unknown = () => undefined,
): Promise<T> {
  const ctx = Context.current();
  const timer = ctx.info.isLocal ? undefined : setInterval(() => ctx.heartbeat(details()), HEARTBEAT_INTERVAL_MS);
  try {
    return await work(ctx.cancellationSignal);
  } catch (err) {
    throw stoppedByShutdown(ctx.cancellationSignal) ? workerShutdownFailure() : err;
  } finally {
    clearInterval(timer);
  }
}

/** When the activity was cancelled, rethrows its cancellation (a `CancelledFailure`) instead of `err`. */
export function rethrowIfCancelled(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason;
}

/**
 * The SDK cancels running activities with reason `WORKER_SHUTDOWN` once the worker's shutdown grace
 * time is over. Rethrown as is, that cancellation would read as the user cancelling the task.
 */
function stoppedByShutdown(signal: AbortSignal): boolean {
  const reason: unknown = signal.aborted ? signal.reason : undefined;
  return isCancelledFailure(reason) && reason.message === 'WORKER_SHUTDOWN';
}

/** What an activity stopped by its worker's shutdown throws: a retryable failure of {@link WORKER_SHUTDOWN_TYPE}. */
export function workerShutdownFailure(): ApplicationFailure {
  return ApplicationFailure.retryable('The worker shut down before this execution finished; it runs again on another worker', WORKER_SHUTDOWN_TYPE);
}

/** Whether `err` is {@link workerShutdownFailure}'s failure. */
export function isWorkerShutdownFailure(err: unknown): boolean {
  return isApplicationFailureOf(err, WORKER_SHUTDOWN_TYPE);
}
