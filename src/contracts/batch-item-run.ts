import { z } from 'zod';
import { BatchItemExecutionSchema } from './subagent-task-input';

/**
 * Input of the `runBatchItem` activity: one try of a batch item, which runs only while it holds
 * one of its batch's running leases (`max_running_items`, kept in the batch store).
 */
export const BatchItemRunInputSchema = z.object({
  item: BatchItemExecutionSchema,
  /** The item's `lease_seconds`: how long a lease lasts unrenewed, and how long a try waits for one. */
  leaseSeconds: z.number().int().positive(),
  /** How often a waiting try asks the store again when no lease released in its process woke it. */
  pollIntervalSeconds: z.number().positive(),
});
export type BatchItemRunInput = z.infer<typeof BatchItemRunInputSchema>;
