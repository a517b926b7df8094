import { Context, log } from '@temporalio/activity';
import { WorkflowNotFoundError, type Client, type WorkflowExecutionStatusName } from '@temporalio/client';
import type { BatchItemCounts, BatchItemRuntime } from '../contracts';
import { itemEndWithoutResult } from '../contracts/item-end-without-result';
import type { BatchStore } from '../store';
import { batchItemWorkflowId } from '../workflows/batch-messages';
import type { ItemEndWriter } from './batch-item-end';

/** Keys per store page, and item workflows asked about or cancelled at once. */
const PAGE = 500;
const CONCURRENCY = 16;

/** What a batch run knows of the items its earlier runs started (keys up to `throughKey`). */
export interface StartedItems {
  /** Their counts by status, as stored. */
  readonly counts: BatchItemCounts;
  /** Items whose workflow had closed without writing its end, now ended in the store by this call. */
  readonly settled: number;
}

/** Runs `work` over `keys`, at most {@link CONCURRENCY} at a time. */
async function eachLimited(keys: readonly string[], work: (key: string) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < keys.length) await work(keys[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, keys.length) }, lane));
}

/** An item workflow's status, or null when Temporal has no such workflow (never started, or deleted). */
async function workflowStatus(client: Client, workflowId: string): Promise<WorkflowExecutionStatusName | null> {
  try {
    return (await client.workflow.getHandle(workflowId).describe()).status.name;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return null;
    throw err;
  }
}

/**
 * Counts the items of a batch with keys up to `throughKey`: the items the batch workflow's earlier
 * runs started. With `settle`, first ends in the store every open one whose item workflow is no
 * longer running: a workflow terminated by an operator, or failed, never writes its row, and no
 * run of the batch is its parent any more to notice (items outlive the run that started them).
 */
export async function startedBatchItems(
  batches: BatchStore,
  writeItemEnd: ItemEndWriter,
  input: { runtime: BatchItemRuntime; throughKey: string; settle: boolean },
): Promise<StartedItems> {
  const { runtime, throughKey } = input;
  let settled = 0;
  if (input.settle) {
    const client = Context.current().client;
    const scope = { batchId: runtime.batchId, ownerId: runtime.ownerId, threadId: runtime.threadId, subagentName: runtime.subagent.name };
    for (let afterKey: string | null = null; ; ) {
      const keys = await batches.openItemsThrough(runtime.batchId, throughKey, PAGE, afterKey);
      await eachLimited(keys, async (key) => {
        const status = await workflowStatus(client, batchItemWorkflowId(runtime.batchId, key));
        if (status === 'RUNNING') return;
        const completedAt = new Date().toISOString();
        const written = await writeItemEnd(
          scope,
          status === 'CANCELLED'
            ? itemEndWithoutResult(key, 'cancelled', null, completedAt, true)
            : itemEndWithoutResult(key, 'failed', `Item workflow ${status === null ? 'not found' : `closed ${status}`} without writing the item's end`, completedAt, true),
        );
        if (!written.written) return;
        settled += 1;
        log.warn('Ended a batch item whose workflow closed without ending it', { batchId: runtime.batchId, key, workflowStatus: status });
      });
      if (keys.length < PAGE) break;
      afterKey = keys[keys.length - 1]!;
    }
  }
  return { counts: await batches.countItemsThrough(runtime.batchId, throughKey), settled };
}

/**
 * Asks Temporal to cancel the workflows of the open items of a batch with keys up to `throughKey`:
 * the items its earlier runs started, which no run is the parent of any more, so no cancellation
 * scope reaches them. Runs before the store cancels the batch (which leaves nothing open to list);
 * an item cancelled this way writes its own `cancelled` end, and one that closed meanwhile is skipped.
 * @returns how many cancellation requests were delivered
 */
export async function cancelStartedItemWorkflows(batches: BatchStore, input: { batchId: string; throughKey: string }): Promise<number> {
  const client = Context.current().client;
  let delivered = 0;
  for (let afterKey: string | null = null; ; ) {
    const keys = await batches.openItemsThrough(input.batchId, input.throughKey, PAGE, afterKey);
    await eachLimited(keys, async (key) => {
      try {
        await client.workflow.getHandle(batchItemWorkflowId(input.batchId, key)).cancel();
        delivered += 1;
      } catch (err) {
        if (!(err instanceof WorkflowNotFoundError)) throw err;
      }
    });
    if (keys.length < PAGE) return delivered;
    afterKey = keys[keys.length - 1]!;
  }
}
