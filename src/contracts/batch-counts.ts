import type { BatchItemCounts } from './batches';

/** The counts of a batch of `itemCount` items none of which has started: every item pending. */
export function pendingBatchCounts(itemCount: number): BatchItemCounts {
  return { pending: itemCount, running: 0, completed: 0, failed: 0, cancelled: 0, timed_out: 0 };
}
