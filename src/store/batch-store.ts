import type {
  BatchAttemptInput,
  BatchItemCounts,
  BatchItemRecord,
  BatchItemStatus,
  BatchItemSummary,
  BatchRecord,
  CompleteBatchItemInput,
  CreateBatchInput,
  FinalBatchStatus,
  ListBatchItemsQuery,
} from '../contracts/batches';

/** Options of {@link BatchStore.createBatch} that are configuration, not batch content. */
export interface CreateBatchOptions {
  /** `subagent_batches.max_items_per_batch`: more items reject the whole request. */
  readonly maxItems: number;
}

/** What {@link BatchStore.createBatch} did. */
export interface CreateBatchOutcome {
  /** False when an identical batch already existed (a retried activity): nothing was written. */
  readonly created: boolean;
  readonly batch: BatchRecord;
}

/**
 * What an item write did. `written` is true when the row now holds this write, whether this call
 * or an identical earlier one (a retried activity) made it; false when the write was fenced
 * because the item is already terminal with another outcome. `status` is the item's status now.
 */
export interface ItemWriteOutcome {
  readonly written: boolean;
  readonly status: BatchItemStatus;
}

/**
 * What {@link BatchStore.acquireItemLease} found. `leased`: the attempt holds the lease until
 * `expiresAtMs`. `full`: `leased` other items hold unexpired leases, as many as the batch's
 * `max_running_items` allows. `fenced`: the item is terminal or a later attempt took it (`status`
 * is its status now); the attempt must not execute.
 */
export type ItemLeaseOutcome =
  | { readonly kind: 'leased'; readonly expiresAtMs: number }
  | { readonly kind: 'full'; readonly leased: number; readonly maxRunning: number }
  | { readonly kind: 'fenced'; readonly status: BatchItemStatus };

/** What {@link BatchStore.cancelBatch} did. */
export interface CancelBatchOutcome {
  /** Items this call turned `cancelled` (0 when repeated or when the batch had already finished). */
  readonly cancelledItems: number;
  /** The batch after the cancellation, counts included. */
  readonly batch: BatchRecord;
}

/** What {@link BatchStore.finishBatch} did. */
export interface FinishBatchOutcome {
  /** True when the batch now has the requested status (set by this call or an earlier one). */
  readonly written: boolean;
  readonly batch: BatchRecord;
}

/**
 * Durable batches and their item rows (SPEC Appendix C.3), keyed by `(batchId, itemKey)`.
 *
 * Every terminal item write is conditional on the row not being terminal yet: that is the fence
 * for late completions. Once an item is `completed | failed | cancelled | timed_out` its row never
 * changes again, so a completion that arrives after `cancelBatch` is refused (`written: false`).
 *
 * Reads that take an `ownerId` are owner-scoped: a batch of another owner reads exactly like a
 * missing one (null, empty, or `not_found`). Lists and exports are in key order (code points).
 * Inputs are validated with the schemas of `contracts/batches.ts` before anything is written.
 */
export interface BatchStore {
  /**
   * Validates the whole request, then writes the batch and every item (`pending`) in one
   * transaction: all or nothing. Idempotent for the same `batchId` with identical content.
   * @throws BatchStoreError `invalid` (bad field, blank prompt, duplicate key, more than `maxItems`
   *   items; nothing stored), `already_exists` (the id is taken by different content)
   */
  createBatch(input: CreateBatchInput, options: CreateBatchOptions): Promise<CreateBatchOutcome>;

  /** The batch with its item counts by status, or null (missing, or another owner's). */
  getBatch(batchId: string, ownerId: string): Promise<BatchRecord | null>;

  /** One full item (result bounded), or null (missing, or the batch is another owner's). */
  getItem(batchId: string, ownerId: string, key: string): Promise<BatchItemRecord | null>;

  /**
   * One page of items in key order, results replaced by bounded previews. Page on with the last
   * key as `afterKey`; `status` filters before the limit. Empty for another owner's batch.
   * @throws BatchStoreError `invalid` for a bad query (limit outside 1..1000)
   */
  listItems(batchId: string, ownerId: string, query: ListBatchItemsQuery): Promise<BatchItemSummary[]>;

  /**
   * Up to `limit` keys of `pending` items in key order, after `afterKey` when given: what the batch
   * workflow starts next (the cursor skips items it started that have not marked themselves running).
   */
  nextPendingItems(batchId: string, limit: number, afterKey?: string | null): Promise<string[]>;

  /**
   * Counts by status of the items whose key is at most `throughKey`: a batch workflow that
   * continued as new reads how many of the items its earlier runs started are still open.
   * @throws BatchStoreError `invalid` for an empty `throughKey`
   */
  countItemsThrough(batchId: string, throughKey: string): Promise<BatchItemCounts>;

  /**
   * Up to `limit` keys of open (`pending` or `running`) items with `afterKey` < key <= `throughKey`,
   * in key order: the items earlier runs of a batch workflow started that have not ended.
   * @throws BatchStoreError `invalid` for an empty `throughKey` or a bad `limit`
   */
  openItemsThrough(batchId: string, throughKey: string, limit: number, afterKey?: string | null): Promise<string[]>;

  /**
   * Marks a nonterminal item `running` in attempt `attempt`, without a lease (sets `started_at`
   * on the first start, from `at` or the clock). A terminal item is left alone: `written: false`
   * tells the item workflow to stop.
   * @throws BatchStoreError `not_found`, `invalid`
   */
  markItemRunning(batchId: string, key: string, attempt: number, at?: string): Promise<ItemWriteOutcome>;

  /**
   * Takes or renews the running lease of attempt `attempt` of item `key`, until `nowMs + leaseMs`
   * (`nowMs` defaults to the clock). Granted while fewer than the batch's `max_running_items`
   * other running items hold a lease that has not expired at `nowMs`; the item's own lease never
   * counts, so the holder renews even when the batch is full. Counting and taking are one atomic
   * step for every caller in every process. Taking the lease marks the item `running` in attempt
   * `attempt` (`started_at` set from `nowMs` on the first start), so a pending item turns running
   * only once it may execute. A terminal item, or one a later attempt took, is `fenced`; a later
   * attempt takes the item over from an earlier one. An expired lease is what a crashed worker
   * leaves behind; it stops counting by itself. Nothing is written unless `leased`.
   * @throws BatchStoreError `not_found` (batch or item), `invalid` (`attempt` or `leaseMs` not a
   *   positive integer, `nowMs` not an integer >= 0; nothing read or written)
   */
  acquireItemLease(batchId: string, key: string, attempt: number, leaseMs: number, nowMs?: number): Promise<ItemLeaseOutcome>;

  /**
   * Gives the lease of attempt `attempt` back (nothing when that attempt holds none, or the item
   * is missing), so another item can take the slot before the lease would expire.
   * @throws BatchStoreError `invalid` (`attempt` not a positive integer)
   */
  releaseItemLease(batchId: string, key: string, attempt: number): Promise<void>;

  /**
   * Appends one non-final attempt to the item's history (the latest 100 entries are kept). An
   * entry equal to one already there (same attempt, outcome, error, `at`) is not appended twice.
   * Refused (`written: false`) once the item is terminal.
   * @throws BatchStoreError `not_found`, `invalid`
   */
  recordAttempt(batchId: string, key: string, attempt: BatchAttemptInput): Promise<ItemWriteOutcome>;

  /**
   * The terminal write of an item, only while the item is not terminal yet (the fence); it gives
   * the item's lease back. The result is stored bounded to the batch's `max_result_chars` (`result_truncated`, and
   * `result_chars` keeps the full length). Repeating the same completion (same status, attempts,
   * `completedAt`, `resultSha256`) reports `written: true` again without writing.
   * @throws BatchStoreError `not_found`, `invalid`
   */
  completeItem(batchId: string, key: string, completion: CompleteBatchItemInput): Promise<ItemWriteOutcome>;

  /**
   * Cancels a running batch for its owner in one transaction: every `pending`/`running` item
   * becomes `cancelled` (its lease given back) and the batch `cancelled`. A finished batch is left as it is.
   * @throws BatchStoreError `not_found` (missing, or another owner's)
   */
  cancelBatch(batchId: string, ownerId: string): Promise<CancelBatchOutcome>;

  /**
   * Ends a running batch. `completed` requires every item terminal; `failed` and `cancelled`
   * turn the items still nonterminal `cancelled` (leases given back) in the same transaction. A batch that already
   * finished keeps its status (`written` tells whether it is the requested one).
   * @throws BatchStoreError `not_found`, `invalid` (`completed` with nonterminal items)
   */
  finishBatch(batchId: string, status: FinalBatchStatus): Promise<FinishBatchOutcome>;

  /**
   * Every item in key order as full records, read page by page (never the whole batch at once).
   * Yields nothing for a missing batch or another owner's.
   */
  exportItems(batchId: string, ownerId: string): AsyncIterable<BatchItemRecord>;
}
