import type { DeerFlowClient } from '../client';
import {
  BatchJsonOutputSchema,
  type BatchItemCounts,
  type BatchItemRecord,
  type BatchJsonOutput,
  type FinalBatchStatus,
} from '../contracts';

/** How a batch ended, read from the store once its wait is over. */
export interface BatchOutcome {
  readonly batchId: string;
  readonly status: FinalBatchStatus;
  readonly itemCount: number;
  readonly counts: BatchItemCounts;
  /** The items asked for, in file order (position). */
  readonly items: readonly BatchItemRecord[];
}

/**
 * Reads the batch and those of its items `keep` selects from the store, in file order. Items are
 * streamed, so a large batch whose results are not needed is never held in memory.
 * @throws Error when the batch is not in the store for `ownerId`.
 */
export async function readBatchOutcome(
  deerflow: DeerFlowClient,
  batchId: string,
  ownerId: string,
  keep: (item: BatchItemRecord) => boolean,
): Promise<BatchOutcome> {
  const batch = await deerflow.getBatch(batchId, ownerId);
  if (batch === null) throw new Error(`batch ${batchId} is not in the store`);
  const items: BatchItemRecord[] = [];
  for await (const item of deerflow.exportBatchItems(batchId, ownerId)) if (keep(item)) items.push(item);
  // The export is in key order; user keys need not follow the file.
  items.sort((a, b) => a.position - b.position);
  return {
    batchId,
    // Still `running` only when the batch workflow failed before it could finish the batch.
    status: batch.status === 'running' ? 'failed' : batch.status,
    itemCount: batch.item_count,
    counts: batch.counts,
    items,
  };
}

/** The `deerflow batch --json` object, validated against its contract schema. */
export function batchJsonOutput(outcome: BatchOutcome): BatchJsonOutput {
  return BatchJsonOutputSchema.parse({
    batch_id: outcome.batchId,
    status: outcome.status,
    counts: outcome.counts,
    items: outcome.items.map((item) => ({
      index: item.position,
      status: item.status,
      attempts: item.attempts,
      stop_reason: item.stop_reason,
      result: item.result,
      error: item.error,
    })),
  });
}

/** 0 when the batch completed with every item completed, else 1. */
export function batchExitCode(outcome: BatchOutcome): number {
  return outcome.status === 'completed' && outcome.counts.completed === outcome.itemCount ? 0 : 1;
}
