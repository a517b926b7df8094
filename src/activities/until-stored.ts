import { Context, log } from '@temporalio/activity';
import { rethrowIfCancelled } from './heartbeat';

const FIRST_RETRY_MS = 250;
const MAX_RETRY_MS = 5_000;

/**
 * Runs a store write until it succeeds, with capped exponential backoff: a store that restarts (a
 * PostgreSQL outage) must delay a finished execution's result, never turn the work into a failed
 * task. Bounded by the activity's timeouts; a cancelled execution stops trying (its cancellation is
 * rethrown). Run it under `withHeartbeats` so the lease outlives the outage. `retryable` says
 * which failures an outage can explain; others (stored data that does not validate) throw at once.
 */
export async function untilStored<T>(write: () => Promise<T>, retryable: (err: unknown) => boolean = () => true): Promise<T> {
  const ctx = Context.current();
  for (let waitMs = FIRST_RETRY_MS; ; waitMs = Math.min(waitMs * 2, MAX_RETRY_MS)) {
    try {
      return await write();
    } catch (err) {
      rethrowIfCancelled(ctx.cancellationSignal);
      if (!retryable(err)) throw err;
      log.warn('A store write failed; retrying', { error: String(err), retryInMs: waitMs });
      await ctx.sleep(waitMs);
    }
  }
}
