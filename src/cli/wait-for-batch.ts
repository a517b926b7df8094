import type { StartedBatch } from '../client';
import type { BatchState } from '../contracts';
import type { Runtime } from './runtime';

/** How often the batch's state is polled for progress. @default 250 ms (4/s) */
export const BATCH_POLL_INTERVAL_MS = 250;
/** The workflow's description is read every this many polls (a failed workflow still answers queries). */
const DESCRIBE_EVERY_POLLS = 4;
/** Longest a single call may take; a slow or failed call just skips one poll. */
const CALL_DEADLINE_MS = 2_000;

/** Why {@link waitForBatch} returned. */
export type BatchWaitOutcome = 'finished' | 'interrupted';

export interface WaitForBatchOptions {
  /** Each polled state, the final one included. */
  readonly onState: (state: BatchState) => void;
  /** Ends the wait early (Ctrl-C); the batch itself is left as it is. */
  readonly interrupted: Promise<void>;
  readonly pollIntervalMs?: number;
}

const OPEN_STATUSES: ReadonlySet<string> = new Set(['RUNNING', 'CONTINUED_AS_NEW']);

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Polls a batch until it ends or `interrupted` resolves: its `state` query for progress (the
 * batch has ended once that says so) and, now and then, its workflow's description, which tells
 * when the workflow closed some other way (failed, terminated). The store says how it ended.
 *
 * Every call has a deadline and is awaited before this returns. The Temporal client retries a
 * failed call on a timer, and a retry after the connection was closed throws out of that timer;
 * so nothing may be left in flight when the caller stops the runtime (Ctrl-C in embedded mode
 * stops the dev server, and calls to it fail until the deadline).
 */
export async function waitForBatch(
  runtime: Pick<Runtime, 'temporal' | 'deerflow'>,
  started: StartedBatch,
  options: WaitForBatchOptions,
): Promise<BatchWaitOutcome> {
  let interrupted = false;
  void options.interrupted.then(() => (interrupted = true));
  const bounded = <T>(call: () => Promise<T>): Promise<T | null> =>
    runtime.temporal.connection.withDeadline(Date.now() + CALL_DEADLINE_MS, call).catch(() => null);

  for (let poll = 0; ; poll += 1) {
    if (interrupted) return 'interrupted';
    const state = await bounded(() => runtime.deerflow.getBatchState(started.batchId));
    if (interrupted) return 'interrupted';
    if (state !== null) {
      options.onState(state);
      if (state.status !== 'running') return 'finished';
    }
    if (poll % DESCRIBE_EVERY_POLLS === DESCRIBE_EVERY_POLLS - 1) {
      const description = await bounded(() => started.handle.describe());
      if (description !== null && !OPEN_STATUSES.has(description.status.name)) return 'finished';
    }
    await Promise.race([delay(options.pollIntervalMs ?? BATCH_POLL_INTERVAL_MS), options.interrupted]);
  }
}
