import {
  FinalBatchStatusSchema,
  type BatchAttemptInput,
  type BatchItemCounts,
  type BatchItemRecord,
  type BatchItemStatus,
  type BatchItemSummary,
  type BatchRecord,
  type CompleteBatchItemInput,
  type CreateBatchInput,
  type FinalBatchStatus,
  type ListBatchItemsQuery,
} from '../../contracts/batches';
import {
  INSERT_CHUNK_SIZE,
  appendAttempt,
  checkPageLimit,
  checkThroughKey,
  countsFromRows,
  contentSha256,
  isSameCompletion,
  pageByKey,
  parseBatchInput,
  parseCreateBatch,
  leaseFenced,
  parseItemLease,
  parseLeaseAttempt,
  parseListQuery,
  parseRunningMark,
  prepareCompletion,
  toBatchRecord,
  toItemRecord,
  toItemSummary,
  type ItemRow,
  type ParsedBatch,
} from '../batch-records';
import type { BatchStore, CancelBatchOutcome, CreateBatchOptions, CreateBatchOutcome, FinishBatchOutcome, ItemLeaseOutcome, ItemWriteOutcome } from '../batch-store';
import { BatchStoreError } from '../errors';
import { toStoredJson } from '../stored-json';
import type { SqliteDatabase } from './open-sqlite-database';
import type { SqliteGroupCommit } from './sqlite-group-commit';

interface SqlBatchRow {
  batch_id: string;
  owner_id: string;
  run_id: string | null;
  title: string;
  subagent_type: string;
  status: string;
  max_live_items: number;
  max_running_items: number;
  max_attempts: number;
  max_result_chars: number;
  result_preview_max_chars: number;
  item_count: number;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
  counts: string;
}

type SqlItemRow = Omit<ItemRow, 'result_truncated' | 'acceptance_criteria' | 'attempt_history' | 'usage'> & {
  result_truncated: number;
  acceptance_criteria: string | null;
  attempt_history: string;
  usage: string | null;
};

const LIVE = `status IN ('pending', 'running')`;
const ITEM_COLUMNS = [
  'batch_id', 'key', 'position', 'prompt', 'acceptance_criteria', 'status', 'attempts', 'attempt_history', 'result_chars',
  'result_truncated', 'result_sha256', 'stop_reason', 'error', 'usage', 'started_at', 'completed_at', 'updated_at',
].map((c) => `i.${c}`).join(', ');
// Counts by status come from the database in the same statement as the batch row.
const SELECT_BATCH = `SELECT b.*, (SELECT json_group_object(status, n) FROM
  (SELECT status, count(*) AS n FROM batch_items WHERE batch_id = b.batch_id GROUP BY status)) AS counts FROM batches b`;

const now = (): string => new Date().toISOString();

function itemRow<R extends SqlItemRow>(r: R): Omit<R, keyof SqlItemRow> & ItemRow {
  return {
    ...r,
    result_truncated: r.result_truncated === 1,
    acceptance_criteria: r.acceptance_criteria === null ? null : (JSON.parse(r.acceptance_criteria) as unknown),
    attempt_history: JSON.parse(r.attempt_history) as unknown,
    usage: r.usage === null ? null : (JSON.parse(r.usage) as unknown),
  };
}

/**
 * SQLite implementation of {@link BatchStore}. Multi-step writes run in IMMEDIATE transactions. An
 * item's own writes (its running mark, its lease, a try, its terminal write) go through the group
 * commit: a batch keeps many items starting and ending at about the same time, and each commit
 * alone is a WAL sync on the thread that runs them all.
 */
export class SqliteBatchStore implements BatchStore {
  readonly #markRunning;
  readonly #itemStatus;
  readonly #maxRunning;
  readonly #leasedOthers;
  readonly #setLease;
  readonly #releaseLease;
  readonly #attemptHistory;
  readonly #setAttemptHistory;
  readonly #limits;
  readonly #complete;
  readonly #completion;
  /** Every batch item execution reads its item once. */
  readonly #item;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly group: SqliteGroupCommit,
  ) {
    this.#markRunning = db.prepare<[number, string, string, string, string]>(
      `UPDATE batch_items SET status = 'running', attempts = ?, lease_expires_ms = NULL, started_at = COALESCE(started_at, ?), updated_at = ?
       WHERE batch_id = ? AND key = ? AND ${LIVE}`,
    );
    this.#itemStatus = db.prepare<[string, string]>('SELECT status FROM batch_items WHERE batch_id = ? AND key = ?');
    this.#maxRunning = db.prepare<[string]>('SELECT max_running_items FROM batches WHERE batch_id = ?');
    this.#leasedOthers = db.prepare<[string, string, number]>(
      `SELECT count(*) AS n FROM batch_items WHERE batch_id = ? AND key <> ? AND status = 'running' AND lease_expires_ms > ?`,
    );
    this.#setLease = db.prepare<[number, number, string, string, string, string]>(
      `UPDATE batch_items SET status = 'running', attempts = ?, lease_expires_ms = ?, started_at = COALESCE(started_at, ?), updated_at = ?
       WHERE batch_id = ? AND key = ?`,
    );
    this.#releaseLease = db.prepare<[string, string, number]>(
      'UPDATE batch_items SET lease_expires_ms = NULL WHERE batch_id = ? AND key = ? AND attempts = ? AND lease_expires_ms IS NOT NULL',
    );
    this.#attemptHistory = db.prepare<[string, string]>('SELECT status, attempt_history FROM batch_items WHERE batch_id = ? AND key = ?');
    this.#setAttemptHistory = db.prepare<[string, string, string, string]>('UPDATE batch_items SET attempt_history = ?, updated_at = ? WHERE batch_id = ? AND key = ?');
    this.#limits = db.prepare<[string]>('SELECT max_result_chars, result_preview_max_chars FROM batches WHERE batch_id = ?');
    // The fence: the WHERE clause refuses the write once the row is terminal.
    this.#complete = db.prepare(
      `UPDATE batch_items SET status = ?, result = ?, result_preview = ?, result_chars = ?, result_truncated = ?, result_sha256 = ?,
         stop_reason = ?, error = ?, attempts = ?, usage = ?, started_at = COALESCE(?, started_at), completed_at = ?, updated_at = ?,
         lease_expires_ms = NULL
       WHERE batch_id = ? AND key = ? AND ${LIVE}`,
    );
    this.#completion = db.prepare<[string, string]>('SELECT status, attempts, completed_at, result_sha256 FROM batch_items WHERE batch_id = ? AND key = ?');
    this.#item = db.prepare<[string, string, string], SqlItemRow & { result: string | null }>(
      `SELECT ${ITEM_COLUMNS}, i.result FROM batch_items i JOIN batches b ON b.batch_id = i.batch_id
       WHERE i.batch_id = ? AND b.owner_id = ? AND i.key = ?`,
    );
  }

  async createBatch(input: CreateBatchInput, options: CreateBatchOptions): Promise<CreateBatchOutcome> {
    const batch = parseCreateBatch(input, options.maxItems);
    const sha = contentSha256(batch);
    const write = this.db.transaction((): boolean => {
      const at = now();
      const l = batch.limits;
      const inserted = this.db
        .prepare(
          `INSERT INTO batches (batch_id, owner_id, run_id, title, subagent_type, status, max_live_items, max_running_items,
             max_attempts, max_result_chars, result_preview_max_chars, item_count, content_sha256, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, 'running', ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (batch_id) DO NOTHING`,
        )
        .run(batch.batchId, batch.ownerId, batch.runId, batch.title, batch.subagentType, l.maxLiveItems, l.maxRunningItems,
          l.maxAttempts, l.maxResultChars, l.resultPreviewMaxChars, batch.items.length, sha, at, at);
      if (inserted.changes === 0) {
        const existing = this.db.prepare('SELECT content_sha256 FROM batches WHERE batch_id = ?').get(batch.batchId) as { content_sha256: string };
        if (existing.content_sha256 !== sha) throw BatchStoreError.alreadyExists(batch.batchId);
        return false;
      }
      this.insertItems(batch, at);
      return true;
    });
    const created = write.immediate();
    return { created, batch: this.readBatch(batch.batchId, batch.ownerId)! };
  }

  // Multi-row INSERTs of INSERT_CHUNK_SIZE rows keep thousands of items to a few statements and
  // under SQLite's bound-parameter limit.
  private insertItems(batch: ParsedBatch, at: string): void {
    const statements = new Map<number, ReturnType<SqliteDatabase['prepare']>>();
    for (let start = 0; start < batch.items.length; start += INSERT_CHUNK_SIZE) {
      const chunk = batch.items.slice(start, start + INSERT_CHUNK_SIZE);
      let insert = statements.get(chunk.length);
      if (insert === undefined) {
        const rows = Array.from({ length: chunk.length }, () => `(?, ?, ?, ?, ?, 'pending', ?)`).join(', ');
        insert = this.db.prepare(`INSERT INTO batch_items (batch_id, key, position, prompt, acceptance_criteria, status, updated_at) VALUES ${rows}`);
        statements.set(chunk.length, insert);
      }
      insert.run(
        chunk.flatMap((item, i) => [
          batch.batchId, item.key, start + i, item.prompt,
          item.acceptance_criteria === undefined ? null : toStoredJson(item.acceptance_criteria), at,
        ]),
      );
    }
  }

  private readBatch(batchId: string, ownerId: string | null): BatchRecord | null {
    const row = (ownerId === null
      ? this.db.prepare(`${SELECT_BATCH} WHERE b.batch_id = ?`).get(batchId)
      : this.db.prepare(`${SELECT_BATCH} WHERE b.batch_id = ? AND b.owner_id = ?`).get(batchId, ownerId)) as SqlBatchRow | undefined;
    return row ? toBatchRecord({ ...row, counts: JSON.parse(row.counts) as Record<string, number> }) : null;
  }

  private owns(batchId: string, ownerId: string): boolean {
    return this.db.prepare('SELECT 1 FROM batches WHERE batch_id = ? AND owner_id = ?').get(batchId, ownerId) !== undefined;
  }

  async getBatch(batchId: string, ownerId: string): Promise<BatchRecord | null> {
    return this.readBatch(batchId, ownerId);
  }

  async getItem(batchId: string, ownerId: string, key: string): Promise<BatchItemRecord | null> {
    const row = this.#item.get(batchId, ownerId, key);
    return row ? toItemRecord(itemRow(row)) : null;
  }

  async listItems(batchId: string, ownerId: string, query: ListBatchItemsQuery): Promise<BatchItemSummary[]> {
    const q = parseListQuery(batchId, query);
    // Keys are never empty: '' pages from the start with the same (index-ordered) condition.
    const where = ['i.batch_id = @batchId', 'b.owner_id = @ownerId', 'i.key > @afterKey'];
    if (q.status !== undefined) where.push('i.status = @status');
    const rows = this.db
      .prepare(`SELECT ${ITEM_COLUMNS}, i.result_preview FROM batch_items i JOIN batches b ON b.batch_id = i.batch_id
                WHERE ${where.join(' AND ')} ORDER BY i.key LIMIT @limit`)
      .all({ batchId, ownerId, afterKey: q.afterKey ?? '', status: q.status, limit: q.limit }) as (SqlItemRow & { result_preview: string | null })[];
    return rows.map((r) => toItemSummary(itemRow(r)));
  }

  async nextPendingItems(batchId: string, limit: number, afterKey: string | null = null): Promise<string[]> {
    const rows = this.db
      .prepare(`SELECT key FROM batch_items WHERE batch_id = ? AND status = 'pending' AND key > ? ORDER BY key LIMIT ?`)
      .all(batchId, afterKey ?? '', checkPageLimit(batchId, limit)) as { key: string }[];
    return rows.map((r) => r.key);
  }

  async countItemsThrough(batchId: string, throughKey: string): Promise<BatchItemCounts> {
    const rows = this.db
      .prepare(`SELECT status, count(*) AS n FROM batch_items WHERE batch_id = ? AND key <= ? GROUP BY status`)
      .all(batchId, checkThroughKey(batchId, throughKey)) as { status: string; n: number }[];
    return countsFromRows(rows);
  }

  async openItemsThrough(batchId: string, throughKey: string, limit: number, afterKey: string | null = null): Promise<string[]> {
    const rows = this.db
      .prepare(`SELECT key FROM batch_items WHERE batch_id = ? AND ${LIVE} AND key > ? AND key <= ? ORDER BY key LIMIT ?`)
      .all(batchId, afterKey ?? '', checkThroughKey(batchId, throughKey), checkPageLimit(batchId, limit)) as { key: string }[];
    return rows.map((r) => r.key);
  }

  /** The item's status, or `not_found`. */
  private itemStatus(batchId: string, key: string): BatchItemStatus {
    const row = this.#itemStatus.get(batchId, key) as { status: BatchItemStatus } | undefined;
    if (!row) throw BatchStoreError.notFound(batchId, key);
    return row.status;
  }

  async markItemRunning(batchId: string, key: string, attempt: number, at?: string): Promise<ItemWriteOutcome> {
    const mark = parseRunningMark(batchId, key, attempt, at);
    return this.group.run((): ItemWriteOutcome => {
      const info = this.#markRunning.run(mark.attempt, mark.at, now(), batchId, key);
      return info.changes === 1 ? { written: true, status: 'running' } : { written: false, status: this.itemStatus(batchId, key) };
    });
  }

  async acquireItemLease(batchId: string, key: string, attempt: number, leaseMs: number, nowMs: number = Date.now()): Promise<ItemLeaseOutcome> {
    const lease = parseItemLease(batchId, key, attempt, leaseMs, nowMs);
    // One IMMEDIATE transaction holds the database's write lock from the count to the write, so
    // no caller in any process takes a slot in between.
    return this.group.run((): ItemLeaseOutcome => {
      const batch = this.#maxRunning.get(batchId) as { max_running_items: number } | undefined;
      if (!batch) throw BatchStoreError.notFound(batchId);
      const item = this.#completion.get(batchId, key) as { status: BatchItemStatus; attempts: number } | undefined;
      if (!item) throw BatchStoreError.notFound(batchId, key);
      if (leaseFenced(item, lease.attempt)) return { kind: 'fenced', status: item.status };
      const { n } = this.#leasedOthers.get(batchId, key, lease.nowMs) as { n: number };
      if (n >= batch.max_running_items) return { kind: 'full', leased: n, maxRunning: batch.max_running_items };
      const expiresAtMs = lease.nowMs + lease.leaseMs;
      this.#setLease.run(lease.attempt, expiresAtMs, new Date(lease.nowMs).toISOString(), now(), batchId, key);
      return { kind: 'leased', expiresAtMs };
    });
  }

  async releaseItemLease(batchId: string, key: string, attempt: number): Promise<void> {
    const leaseAttempt = parseLeaseAttempt(batchId, key, attempt);
    await this.group.run(() => this.#releaseLease.run(batchId, key, leaseAttempt));
  }

  async recordAttempt(batchId: string, key: string, attempt: BatchAttemptInput): Promise<ItemWriteOutcome> {
    return this.group.run((): ItemWriteOutcome => {
      const row = this.#attemptHistory.get(batchId, key) as { status: BatchItemStatus; attempt_history: string } | undefined;
      if (!row) throw BatchStoreError.notFound(batchId, key);
      const { next } = appendAttempt(batchId, key, JSON.parse(row.attempt_history), attempt);
      if (next === null) return { written: true, status: row.status };
      if (row.status !== 'pending' && row.status !== 'running') return { written: false, status: row.status };
      this.#setAttemptHistory.run(toStoredJson(next), now(), batchId, key);
      return { written: true, status: row.status };
    });
  }

  async completeItem(batchId: string, key: string, completion: CompleteBatchItemInput): Promise<ItemWriteOutcome> {
    // A batch's limits never change: read outside the write, which only needs the item row.
    const limits = this.#limits.get(batchId) as { max_result_chars: number; result_preview_max_chars: number } | undefined;
    if (!limits) throw BatchStoreError.notFound(batchId);
    const c = prepareCompletion(batchId, key, completion, { maxResultChars: limits.max_result_chars, previewChars: limits.result_preview_max_chars });
    const usage = c.usage === null ? null : toStoredJson(c.usage);
    return this.group.run((): ItemWriteOutcome => {
      const info = this.#complete.run(c.status, c.result, c.resultPreview, c.resultChars, c.resultTruncated ? 1 : 0, c.resultSha256, c.stopReason, c.error,
        c.attempts, usage, c.startedAt, c.completedAt, now(), batchId, key);
      if (info.changes === 1) return { written: true, status: c.status };
      const row = this.#completion.get(batchId, key) as { status: BatchItemStatus; attempts: number; completed_at: string | null; result_sha256: string | null } | undefined;
      if (!row) throw BatchStoreError.notFound(batchId, key);
      return { written: isSameCompletion(row, c), status: row.status };
    });
  }

  /** Turns every nonterminal item of the batch `cancelled`; returns how many. Inside a transaction. */
  private cancelLiveItems(batchId: string, at: string): number {
    return this.db
      .prepare(`UPDATE batch_items SET status = 'cancelled', completed_at = ?, updated_at = ?, lease_expires_ms = NULL WHERE batch_id = ? AND ${LIVE}`)
      .run(at, at, batchId).changes;
  }

  private setBatchStatus(batchId: string, status: FinalBatchStatus, at: string): void {
    this.db.prepare(`UPDATE batches SET status = ?, updated_at = ?, finished_at = ? WHERE batch_id = ?`).run(status, at, at, batchId);
  }

  async cancelBatch(batchId: string, ownerId: string): Promise<CancelBatchOutcome> {
    const cancel = this.db.transaction((): CancelBatchOutcome => {
      const row = this.db.prepare('SELECT status FROM batches WHERE batch_id = ? AND owner_id = ?').get(batchId, ownerId) as { status: string } | undefined;
      if (!row) throw BatchStoreError.notFound(batchId);
      let cancelledItems = 0;
      if (row.status === 'running') {
        const at = now();
        cancelledItems = this.cancelLiveItems(batchId, at);
        this.setBatchStatus(batchId, 'cancelled', at);
      }
      return { cancelledItems, batch: this.readBatch(batchId, ownerId)! };
    });
    return cancel.immediate();
  }

  async finishBatch(batchId: string, status: FinalBatchStatus): Promise<FinishBatchOutcome> {
    const final = parseBatchInput(FinalBatchStatusSchema, status, batchId);
    const finish = this.db.transaction((): FinishBatchOutcome => {
      const row = this.db.prepare('SELECT status FROM batches WHERE batch_id = ?').get(batchId) as { status: string } | undefined;
      if (!row) throw BatchStoreError.notFound(batchId);
      if (row.status !== 'running') return { written: row.status === final, batch: this.readBatch(batchId, null)! };
      const at = now();
      if (final === 'completed') {
        const live = this.db.prepare(`SELECT count(*) AS n FROM batch_items WHERE batch_id = ? AND ${LIVE}`).get(batchId) as { n: number };
        if (live.n > 0) throw BatchStoreError.invalid(batchId, null, [`status: cannot complete a batch with ${live.n} nonterminal items`]);
      } else {
        this.cancelLiveItems(batchId, at);
      }
      this.setBatchStatus(batchId, final, at);
      return { written: true, batch: this.readBatch(batchId, null)! };
    });
    return finish.immediate();
  }

  async *exportItems(batchId: string, ownerId: string): AsyncGenerator<BatchItemRecord> {
    if (!this.owns(batchId, ownerId)) return;
    const page = this.db.prepare(
      `SELECT ${ITEM_COLUMNS}, i.result FROM batch_items i WHERE i.batch_id = @batchId AND i.key > @afterKey
       ORDER BY i.key LIMIT @limit`,
    );
    yield* pageByKey(async (afterKey, limit) =>
      (page.all({ batchId, afterKey, limit }) as (SqlItemRow & { result: string | null })[]).map((r) => toItemRecord(itemRow(r))),
    );
  }
}
