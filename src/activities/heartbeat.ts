import { Context } from '@temporalio/activity';

/** How often a long activity heartbeats while it waits on a model or tool. */
export const HEARTBEAT_INTERVAL_MS = 2_000;

/**
 * Runs `work` while heartbeating every few seconds, so cancellation reaches the activity and a
 * dead worker's lease expires. `work` gets the activity's cancellation signal to pass to models
 * and tools; `details()` supplies the latest progress for each heartbeat.
 */
export async function withHeartbeats<T>(
  work: (signal: AbortSignal) => Promise<T>,
  details: () => unknown = () => undefined,
): Promise<T> {
  const ctx = Context.current();
  ctx.heartbeat(details());
  const timer = setInterval(() => ctx.heartbeat(details()), HEARTBEAT_INTERVAL_MS);
  try {
    return await work(ctx.cancellationSignal);
  } finally {
    clearInterval(timer);
  }
}

/** When the activity was cancelled, rethrows its cancellation (a `CancelledFailure`) instead of `err`. */
export function rethrowIfCancelled(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason;
}
