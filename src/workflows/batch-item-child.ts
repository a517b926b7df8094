import { CancellationScope, executeChild, isCancellation, ParentClosePolicy, startChild } from '@temporalio/workflow';
import type { BatchItemStatus, BatchItemWorkflowInput, BatchWorkflowInput } from '../contracts';
import { boundText } from '../contracts/bounded-text';
import { itemEndWithoutResult } from '../contracts/item-end-without-result';
import { SA_BATCH_ID, SA_USER_ID } from '../contracts/search-attributes';
import { batchStore } from './activity-proxies';
import { batchItemWorkflow } from './batch-item-workflow';
import { batchItemWorkflowId } from './batch-messages';
import { failureMessage } from './classify-activity-failure';

/**
 * Runs item `key` as a child workflow in `scope` (the batch cancels the scope to cancel its items)
 * and resolves to the status its row ended with. `start` says how the item gets its running slot:
 * it leases one per try, it starts holding one the batch granted, or it asks the batch for one. A
 * child that failed (or never started) leaves its row to the batch, which writes it here; the
 * store fences the write. With `outlive` the child is abandoned when this run closes (it continues
 * as new without waiting for it), and `outlive.started` is called once Temporal started it.
 */
export function runBatchItemChild(
  scope: CancellationScope,
  input: BatchWorkflowInput,
  key: string,
  start: { readonly leased: true } | { readonly slotGranted: true } | Record<string, never>,
  outlive?: { readonly started: () => void },
): Promise<BatchItemStatus> {
  const { runtime } = input;
  const options = {
    workflowId: batchItemWorkflowId(runtime.batchId, key),
    args: [{ runtime, key, ...start }] as [BatchItemWorkflowInput],
    staticSummary: boundText(`${input.title}: item ${key}`, 200),
    typedSearchAttributes: [
      { key: SA_BATCH_ID, value: runtime.batchId },
      { key: SA_USER_ID, value: runtime.ownerId },
    ],
  };
  return scope
    .run(async () => {
      if (outlive === undefined) return executeChild(batchItemWorkflow, options);
      const child = await startChild(batchItemWorkflow, { ...options, parentClosePolicy: ParentClosePolicy.ABANDON });
      outlive.started();
      return child.result();
    })
    .then(
      (outcome) => outcome.status,
      async (err: unknown) =>
        (
          await CancellationScope.nonCancellable(() =>
            batchStore.finishBatchItem({
              runtime,
              ...(isCancellation(err)
                ? itemEndWithoutResult(key, 'cancelled', null, new Date().toISOString())
                : itemEndWithoutResult(key, 'failed', `Item workflow failed: ${failureMessage(err)}`, new Date().toISOString())),
            }),
          )
        ).status,
    );
}
