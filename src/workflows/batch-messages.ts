import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { BatchState, CancelBatchRequest, CancelBatchResult } from '../contracts';

/** Live state of a batch: counts by status, live and running items. */
export const batchStateQuery = defineQuery<BatchState>('state');

/**
 * Cancels a batch for its owner. An update, not a signal: it returns once every nonterminal item
 * is `cancelled` in the store, so the caller knows no item can end `completed` afterwards.
 */
export const cancelBatchUpdate = defineUpdate<CancelBatchResult, [CancelBatchRequest]>('cancelBatch');

/** Item -> batch: the item wants one of the batch's running slots (`max_running_items`). */
export const requestItemSlotSignal = defineSignal<[{ key: string }]>('requestItemSlot');
/** Item -> batch: the item gives its running slot back (it waits before trying again). */
export const releaseItemSlotSignal = defineSignal<[{ key: string }]>('releaseItemSlot');
/** Batch -> item: the slot the item asked for is its own now. */
export const itemSlotGrantedSignal = defineSignal('itemSlotGranted');

/** Workflow id of a batch. */
export function batchWorkflowId(batchId: string): string {
  return `batch:${batchId}`;
}

/** Workflow id of one item: derived from the batch and the key, so an item never runs twice at once. */
export function batchItemWorkflowId(batchId: string, key: string): string {
  return `batch-item:${batchId}:${key}`;
}
