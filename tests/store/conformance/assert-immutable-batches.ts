import type { BatchItemRecord, BatchItemSummary, BatchRecord } from '../../../src/contracts/batches';
import type { BatchStore } from '../../../src/store';
import { Snapshots, clone, deepFreeze } from './snapshots';

const frozen = <T>(value: T): T => deepFreeze(clone(value));
const terminal = (status: string): boolean => status !== 'pending' && status !== 'running';

/**
 * Wraps a BatchStore for {@link assertImmutable}: what a batch or item was created with never
 * changes, a finished batch and a terminal item never change at all (the fence), and inputs are
 * deep-frozen.
 */
export function assertBatchesImmutable(store: BatchStore): BatchStore {
  const batchFixed = new Snapshots<unknown>('batch');
  const batchFinished = new Snapshots<BatchRecord>('finished batch');
  const itemFixed = new Snapshots<unknown>('item');
  const itemTerminal = new Snapshots<BatchItemRecord>('terminal item');
  const summaryTerminal = new Snapshots<BatchItemSummary>('terminal item summary');

  const batch = (r: BatchRecord): BatchRecord => {
    const { status: _s, counts: _c, updated_at: _u, finished_at: _f, ...fixed } = r;
    batchFixed.check(r.batch_id, fixed);
    if (r.status !== 'running') batchFinished.check(r.batch_id, r);
    return r;
  };
  const fixedOf = (r: BatchItemRecord | BatchItemSummary): unknown => ({ prompt: r.prompt, position: r.position, criteria: r.acceptance_criteria });
  const item = (r: BatchItemRecord): BatchItemRecord => {
    itemFixed.check(`${r.batch_id}/${r.key}`, fixedOf(r));
    return terminal(r.status) ? itemTerminal.check(`${r.batch_id}/${r.key}`, r) : r;
  };
  const summary = (r: BatchItemSummary): BatchItemSummary => {
    itemFixed.check(`${r.batch_id}/${r.key}`, fixedOf(r));
    return terminal(r.status) ? summaryTerminal.check(`${r.batch_id}/${r.key}`, r) : r;
  };

  return {
    createBatch: async (input, options) => {
      const out = await store.createBatch(frozen(input), frozen(options));
      return { ...out, batch: batch(out.batch) };
    },
    getBatch: async (batchId, ownerId) => {
      const found = await store.getBatch(batchId, ownerId);
      return found === null ? null : batch(found);
    },
    getItem: async (batchId, ownerId, key) => {
      const found = await store.getItem(batchId, ownerId, key);
      return found === null ? null : item(found);
    },
    listItems: async (batchId, ownerId, query) => (await store.listItems(batchId, ownerId, frozen(query))).map(summary),
    nextPendingItems: (batchId, limit) => store.nextPendingItems(batchId, limit),
    countItemsThrough: (batchId, throughKey) => store.countItemsThrough(batchId, throughKey),
    openItemsThrough: (batchId, throughKey, limit, afterKey) => store.openItemsThrough(batchId, throughKey, limit, afterKey),
    markItemRunning: (batchId, key, attempt, at) => store.markItemRunning(batchId, key, attempt, at),
    acquireItemLease: (batchId, key, attempt, leaseMs, nowMs) => store.acquireItemLease(batchId, key, attempt, leaseMs, nowMs),
    releaseItemLease: (batchId, key, attempt) => store.releaseItemLease(batchId, key, attempt),
    recordAttempt: (batchId, key, attempt) => store.recordAttempt(batchId, key, frozen(attempt)),
    completeItem: (batchId, key, completion) => store.completeItem(batchId, key, frozen(completion)),
    cancelBatch: async (batchId, ownerId) => {
      const out = await store.cancelBatch(batchId, ownerId);
      return { ...out, batch: batch(out.batch) };
    },
    finishBatch: async (batchId, status) => {
      const out = await store.finishBatch(batchId, status);
      return { ...out, batch: batch(out.batch) };
    },
    exportItems: async function* (batchId, ownerId) {
      for await (const r of store.exportItems(batchId, ownerId)) yield item(r);
    },
  };
}
