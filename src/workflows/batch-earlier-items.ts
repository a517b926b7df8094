import type { BatchItemCounts } from '../contracts';

/**
 * Decisions about the items earlier runs of a batch workflow started (pure; the workflow applies
 * them). Since patch `batch-items-outlive-runs` a batch continues as new without waiting for its
 * live items: they run on, and the next run learns how they end from the store, by polling.
 */

/** Items not ended yet: `pending` ones wait for a running lease, `running` ones hold one. */
export function openItems(counts: BatchItemCounts): number {
  return counts.pending + counts.running;
}

/**
 * A run's counts at its start, from the stored counts of the items earlier runs started (keys up
 * to the cursor). The batch counts an item it started as `running` until it ends, whether or not
 * it holds a lease yet; every later item is still `pending`.
 */
export function countsAtStart(itemCount: number, earlier: BatchItemCounts): BatchItemCounts {
  const started = Object.values(earlier).reduce((n, count) => n + count, 0);
  return { ...earlier, pending: itemCount - started, running: openItems(earlier) };
}

/** The run's counts once the earlier items' stored counts moved from `before` to `after`. */
export function countsAfterPoll(counts: BatchItemCounts, before: BatchItemCounts, after: BatchItemCounts): BatchItemCounts {
  return {
    pending: counts.pending,
    running: counts.running - (openItems(before) - openItems(after)),
    completed: counts.completed + after.completed - before.completed,
    failed: counts.failed + after.failed - before.failed,
    cancelled: counts.cancelled + after.cancelled - before.cancelled,
    timed_out: counts.timed_out + after.timed_out - before.timed_out,
  };
}

/**
 * How long to wait before the next poll: the poll interval after a change, twice the last wait
 * (at most `maxMs`) while nothing changes, so items that run for hours cost few history events.
 */
export function nextPollMs(lastMs: number | null, changed: boolean, minMs: number, maxMs: number): number {
  if (lastMs === null || changed) return minMs;
  return Math.min(lastMs * 2, Math.max(minMs, maxMs));
}

/**
 * Whether the next poll should also look for items whose workflow closed without writing its end
 * (terminated by an operator): only once the open count stood still for a lease length, since
 * that look asks Temporal about every open item.
 */
export function shouldSettle(unchangedForMs: number, leaseMs: number): boolean {
  return unchangedForMs >= leaseMs;
}
