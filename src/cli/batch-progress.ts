import type { BatchState } from '../contracts';

/** Where a batch stands, in the terms the progress display uses. */
export interface BatchProgress {
  readonly total: number;
  /** Items in a terminal status. */
  readonly done: number;
  readonly completed: number;
  /** Failed or timed out. */
  readonly failed: number;
  readonly cancelled: number;
  /** Items holding a running slot. */
  readonly running: number;
  /** Items not done and not running: pending, or started and waiting for a slot or a retry. */
  readonly queued: number;
}

/** The progress in a batch workflow's `state` query (or its result). */
export function progressOf(state: BatchState): BatchProgress {
  const { completed, failed, timed_out, cancelled } = state.counts;
  const done = completed + failed + timed_out + cancelled;
  // A slot may still be held for a moment by an item that already ended.
  const running = Math.min(state.runningItems, state.counts.running);
  return {
    total: state.itemCount,
    done,
    completed,
    failed: failed + timed_out,
    cancelled,
    running,
    queued: Math.max(0, state.itemCount - done - running),
  };
}

/** Percentage of items done, rounded down (100 only when all are). */
export function percentDone(progress: BatchProgress): number {
  return progress.total === 0 ? 100 : Math.floor((progress.done * 100) / progress.total);
}

/** `3 completed, 1 failed, 2 running, 4 queued` (cancelled items only when there are some). */
export function formatCounts(progress: BatchProgress): string {
  const cancelled = progress.cancelled > 0 ? `, ${progress.cancelled} cancelled` : '';
  return `${progress.completed} completed, ${progress.failed} failed${cancelled}, ${progress.running} running, ${progress.queued} queued`;
}

/** One plain progress line (no terminal control characters): counts, rate and ETA. */
export function formatProgressLine(progress: BatchProgress, rate: string, eta: string): string {
  return `batch ${progress.done}/${progress.total} done (${percentDone(progress)}%): ${formatCounts(progress)}; ${rate}, ETA ${eta}`;
}
