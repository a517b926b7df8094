import { ApplicationFailure } from '@temporalio/common';
import {
  BATCH_NOT_FOUND_TYPE,
  BATCH_STORE_INVALID_TYPE,
  BATCH_STORE_NOT_FOUND_TYPE,
  type BatchItemAttemptRecord,
  type BatchItemCounts,
  type BatchOfOwnerInput,
  type CancelBatchResult,
  type FailureType,
  type FinalBatchStatus,
  type FinishBatchInput,
  type AdmissionDecision,
  type FinishBatchItemInput,
  type FinishedBatchItem,
  type NextBatchItemsInput,
  type StartedBatchItemsInput,
  type CancelStartedBatchItemsInput,
  type StartBatchItemAttemptInput,
} from '../contracts';
import { isBatchStoreError, type BatchStoreErrorCode, type ItemWriteOutcome } from '../store';
import type { ActivityDeps } from './activity-deps';
import { admitTasks } from './admit-subagents';
import { parseActivityInput } from './parse-activity-input';
import { createItemEndWriter } from './batch-item-end';
import { cancelStartedItemWorkflows, startedBatchItems, type StartedItems } from './started-batch-items';

/** A batch's stored progress, read when a batch workflow run starts. */
export interface BatchProgress {
  readonly status: 'running' | FinalBatchStatus;
  readonly counts: BatchItemCounts;
}

/** How one try of an item starts: admission, and the `running` mark when admitted (null when not). */
export interface StartedAttempt {
  readonly admission: AdmissionDecision;
  readonly mark: ItemWriteOutcome | null;
}

/** The failure type of each store refusal that retrying cannot fix. */
const STORE_FAILURE_TYPES: Readonly<Record<Exclude<BatchStoreErrorCode, 'already_exists'>, FailureType>> = {
  not_found: BATCH_STORE_NOT_FOUND_TYPE,
  invalid: BATCH_STORE_INVALID_TYPE,
};

/** Store errors that retrying cannot fix fail the activity for good. */
async function nonRetryableStoreErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isBatchStoreError(err) && err.code !== 'already_exists') throw ApplicationFailure.nonRetryable(err.message, STORE_FAILURE_TYPES[err.code]);
    throw err;
  }
}

/** Builds the batch bookkeeping activities (lead queue): every store write of a batch and its items. */
export function createBatchActivities(deps: ActivityDeps) {
  const batches = deps.stores.batches;
  const writeItemEnd = createItemEndWriter(deps);
  return {
    /** Up to `limit` pending keys after `afterKey`, in key order. */
    async nextBatchItems(raw: NextBatchItemsInput): Promise<string[]> {
      const { batchId, afterKey, limit } = parseActivityInput('nextBatchItems', raw);
      return nonRetryableStoreErrors(() => batches.nextPendingItems(batchId, limit, afterKey));
    },

    async loadBatchProgress(raw: BatchOfOwnerInput): Promise<BatchProgress> {
      const { batchId, ownerId } = parseActivityInput('loadBatchProgress', raw);
      const batch = await batches.getBatch(batchId, ownerId);
      if (batch === null) throw ApplicationFailure.nonRetryable(`Batch ${batchId} is not stored`, BATCH_NOT_FOUND_TYPE);
      return { status: batch.status, counts: batch.counts };
    },

    async markBatchItemRunning(raw: StartBatchItemAttemptInput): Promise<ItemWriteOutcome> {
      const { batchId, key, attempt, at } = parseActivityInput('markBatchItemRunning', raw);
      return nonRetryableStoreErrors(() => batches.markItemRunning(batchId, key, attempt, at));
    },

    /**
     * One try's start in one activity (an item's hot path): admission as `admitSubagents` decides it
     * for one task, then, only when admitted, the `markBatchItemRunning` write. A retry (the mark
     * failed) decides admission again: it only reads, and marking the same attempt twice is harmless.
     * @throws ApplicationFailure (non-retryable, `INVALID_INPUT`) for an input that does not validate
     */
    async startBatchItemAttempt(raw: StartBatchItemAttemptInput): Promise<StartedAttempt> {
      const { batchId, key, attempt, at } = parseActivityInput('startBatchItemAttempt', raw);
      const admission = await admitTasks(deps, 1);
      if (admission.admitted < 1) return { admission, mark: null };
      return { admission, mark: await nonRetryableStoreErrors(() => batches.markItemRunning(batchId, key, attempt, at)) };
    },

    async recordBatchItemAttempt(raw: BatchItemAttemptRecord): Promise<ItemWriteOutcome> {
      const { batchId, key, ...attempt } = parseActivityInput('recordBatchItemAttempt', raw);
      return nonRetryableStoreErrors(() => batches.recordAttempt(batchId, key, attempt));
    },

    /**
     * The item's terminal write (fenced: a terminal row stays as it is), then its single
     * `subagent.end` event with the status the row holds, when the item ever executed.
     */
    async finishBatchItem(raw: FinishBatchItemInput): Promise<FinishedBatchItem> {
      const { runtime, ...end } = parseActivityInput('finishBatchItem', raw);
      const scope = { batchId: runtime.batchId, ownerId: runtime.ownerId, threadId: runtime.threadId, subagentName: runtime.subagent.name };
      return nonRetryableStoreErrors(() => writeItemEnd(scope, end));
    },

    /**
     * What became of the items the batch workflow's earlier runs started (keys up to `throughKey`):
     * their counts, after ending (with `settle`) any whose workflow closed without writing its end.
     */
    async startedBatchItems(raw: StartedBatchItemsInput): Promise<StartedItems> {
      const input = parseActivityInput('startedBatchItems', raw);
      return nonRetryableStoreErrors(() => startedBatchItems(batches, writeItemEnd, input));
    },

    /** Asks Temporal to cancel the open items earlier runs started (before the store cancels the batch). */
    async cancelStartedBatchItems(raw: CancelStartedBatchItemsInput): Promise<number> {
      const input = parseActivityInput('cancelStartedBatchItems', raw);
      return nonRetryableStoreErrors(() => cancelStartedItemWorkflows(batches, input));
    },

    /** Cancels the batch in the store for its owner: every nonterminal item `cancelled`, at once. */
    async cancelBatchItems(raw: BatchOfOwnerInput): Promise<CancelBatchResult> {
      const input = parseActivityInput('cancelBatchItems', raw);
      try {
        const outcome = await batches.cancelBatch(input.batchId, input.ownerId);
        return { cancelledItems: outcome.cancelledItems, counts: outcome.batch.counts };
      } catch (err) {
        if (isBatchStoreError(err) && err.code === 'not_found') {
          throw ApplicationFailure.nonRetryable(`Batch ${input.batchId} not found`, BATCH_NOT_FOUND_TYPE);
        }
        throw err;
      }
    },

    /** Ends the batch in the store; returns the counts it ended with. */
    async finishBatch(raw: FinishBatchInput): Promise<BatchProgress> {
      const { batchId, status } = parseActivityInput('finishBatch', raw);
      const outcome = await nonRetryableStoreErrors(() => batches.finishBatch(batchId, status));
      return { status: outcome.batch.status, counts: outcome.batch.counts };
    },
  };
}

export type BatchActivities = ReturnType<typeof createBatchActivities>;
