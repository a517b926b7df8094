import { z } from 'zod';
import type { BatchItemStatus } from './batches';
import { BatchItemExecutionSchema } from './subagent-task-input';
import type { SubagentExecutionResult } from './workflow-io';

/**
 * Input of the `runBatchItem` activity: one try of a batch item, which runs only while it holds
 * one of its batch's running leases (`max_running_items`, kept in the batch store).
 */
export const BatchItemRunInputSchema = z.object({
  item: BatchItemExecutionSchema,
  /**
   * The subagent's execution cap, counted from when the try took its lease (absent in tries
   * scheduled before it was sent: Temporal's start-to-close alone bounds those).
   */
  timeoutSeconds: z.number().positive().optional(),
  /** The item's `lease_seconds`: how long a lease lasts unrenewed, and how long a try waits for one. */
  leaseSeconds: z.number().int().positive(),
  /** How often a waiting try asks the store again when no lease released in its process woke it. */
  pollIntervalSeconds: z.number().positive(),
});
export type BatchItemRunInput = z.infer<typeof BatchItemRunInputSchema>;

/** What an item's end wrote: the status the row holds now (a fenced write keeps the stored one). */
export interface FinishedBatchItem {
  readonly written: boolean;
  readonly status: BatchItemStatus;
}

/**
 * What `runBatchItem` returns: the execution's result and, for a completed try, the item's
 * terminal write it made itself (`written` false: the row was terminal already, e.g. cancelled;
 * `status` is the row's). Null when the workflow must write the end (any other result, or a
 * terminal write that failed here).
 */
export interface BatchItemRunResult {
  readonly result: SubagentExecutionResult;
  readonly finished: FinishedBatchItem | null;
}
