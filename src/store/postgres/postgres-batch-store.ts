import type { Pool, QueryResult, QueryResultRow } from 'pg';
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
  type BatchRow,
  type ItemRow,
  type ParsedBatch,
} from '../batch-records';
import type { BatchStore, CancelBatchOutcome, CreateBatchOptions, CreateBatchOutcome, FinishBatchOutcome, ItemLeaseOutcome, ItemWriteOutcome } from '../batch-store';
import { BatchStoreError } from '../errors';
import { toStoredJson } from '../stored-json';
import { withTransaction } from './postgres-database';

/** The pool, or one connection inside a transaction. */
interface Queryable {
  query<R extends QueryResultRow>(text: string, values?: unknown[]): Promise<QueryResult<R>>;
}

type PgBatchRow = Omit<BatchRow, 'created_at' | 'updated_at' | 'finished_at'> & { created_at: Date; updated_at: Date; finished_at: Date | null };
type PgItemRow = Omit<ItemRow, 'started_at' | 'completed_at' | 'updated_at'> & { started_at: Date | null; completed_at: Date | null; updated_at: Date };

const LIVE = `status IN ('pending', 'running')`;
const ITEM_COLUMNS = [
  'batch_id', 'key', 'position', 'prompt', 'acceptance_criteria', 'status', 'attempts', 'attempt_history', 'result_chars',
  'result_truncated', 'result_sha256', 'stop_reason', 'error', 'usage', 'started_at', 'completed_at', 'updated_at',
].map((c) => `i.${c}`).join(', ');
// Counts by status come from the database in the same statement (one snapshot) as the batch row.
const SELECT_BATCH = `SELECT b.*, (SELECT coalesce(json_object_agg(s.status, s.n), '{}'::json) FROM
  (SELECT status, count(*)::integer AS n FROM batch_items WHERE batch_id = b.batch_id GROUP BY status) s) AS counts FROM batches b`;

const now = (): string => new Date().toISOString();
const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());
const text = (b: Buffer | null): string | null => (b === null ? null : b.toString('utf8'));
const bytes = (s: string | null): Buffer | null => (s === null ? null : Buffer.from(s, 'utf8'));

function itemRow<R extends PgItemRow>(r: R): Omit<R, 'started_at' | 'completed_at' | 'updated_at'> & ItemRow {
  return { ...r, started_at: iso(r.started_at), completed_at: iso(r.completed_at), updated_at: r.updated_at.toISOString() };
}

/**
 * PostgreSQL implementation of {@link BatchStore}. Conditional writes are single UPDATEs whose
 * WHERE clause PostgreSQL re-checks on the latest row version after waiting for a concurrent
 * writer, so of two concurrent terminal writes exactly one matches.
 */
export class PostgresBatchStore implements BatchStore {
  constructor(private readonly pool: Pool) {}

  async createBatch(input: CreateBatchInput, options: CreateBatchOptions): Promise<CreateBatchOutcome> {
    const batch = parseCreateBatch(input, options.maxItems);
    const sha = contentSha256(batch);
    return withTransaction(this.pool, async (client) => {
      const at = now();
      const l = batch.limits;
      // A concurrent creator of the same id waits here on the primary key until the first commits.
      const inserted = await client.query(
        `INSERT INTO batches (batch_id, owner_id, run_id, title, subagent_type, status, max_live_items, max_running_items,
           max_attempts, max_result_chars, result_preview_max_chars, item_count, content_sha256, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, 'running', $6, $7, $8, $9, $10, $11, $12, $13, $13) ON CONFLICT (batch_id) DO NOTHING`,
        [batch.batchId, batch.ownerId, batch.runId, batch.title, batch.subagentType, l.maxLiveItems, l.maxRunningItems,
          l.maxAttempts, l.maxResultChars, l.resultPreviewMaxChars, batch.items.length, sha, at],
      );
      let created = true;
      if (inserted.rowCount === 0) {
        const existing = await client.query<{ content_sha256: string }>('SELECT content_sha256 FROM batches WHERE batch_id = $1', [batch.batchId]);
        if (existing.rows[0]?.content_sha256 !== sha) throw BatchStoreError.alreadyExists(batch.batchId);
        created = false;
      } else {
        await insertItems(client, batch, at);
      }
      return { created, batch: (await readBatch(client, batch.batchId, batch.ownerId))! };
    });
  }

  async getBatch(batchId: string, ownerId: string): Promise<BatchRecord | null> {
    return readBatch(this.pool, batchId, ownerId);
  }

  async getItem(batchId: string, ownerId: string, key: string): Promise<BatchItemRecord | null> {
    const res = await this.pool.query<PgItemRow & { result: Buffer | null }>(
      `SELECT ${ITEM_COLUMNS}, i.result FROM batch_items i JOIN batches b ON b.batch_id = i.batch_id
       WHERE i.batch_id = $1 AND b.owner_id = $2 AND i.key = $3`,
      [batchId, ownerId, key],
    );
    const row = res.rows[0];
    return row ? toItemRecord({ ...itemRow(row), result: text(row.result) }) : null;
  }

  async listItems(batchId: string, ownerId: string, query: ListBatchItemsQuery): Promise<BatchItemSummary[]> {
    const q = parseListQuery(batchId, query);
    // Keys are never empty: '' pages from the start with the same (index-ordered) condition.
    const params: unknown[] = [batchId, ownerId, q.afterKey ?? '', q.limit];
    let status = '';
    if (q.status !== undefined) {
      params.push(q.status);
      status = `AND i.status = $${params.length}`;
    }
    const res = await this.pool.query<PgItemRow & { result_preview: Buffer | null }>(
      `SELECT ${ITEM_COLUMNS}, i.result_preview FROM batch_items i JOIN batches b ON b.batch_id = i.batch_id
       WHERE i.batch_id = $1 AND b.owner_id = $2 AND i.key > $3 ${status} ORDER BY i.key LIMIT $4`,
      params,
    );
    return res.rows.map((r) => toItemSummary({ ...itemRow(r), result_preview: text(r.result_preview) }));
  }

  async nextPendingItems(batchId: string, limit: number, afterKey: string | null = null): Promise<string[]> {
    const res = await this.pool.query<{ key: string }>(
      `SELECT key FROM batch_items WHERE batch_id = $1 AND status = 'pending' AND key > $2 ORDER BY key LIMIT $3`,
      [batchId, afterKey ?? '', checkPageLimit(batchId, limit)],
    );
    return res.rows.map((r) => r.key);
  }

  async countItemsThrough(batchId: string, throughKey: string): Promise<BatchItemCounts> {
    const res = await this.pool.query<{ status: string; n: number }>(
      `SELECT status, count(*)::integer AS n FROM batch_items WHERE batch_id = $1 AND key <= $2 GROUP BY status`,
      [batchId, checkThroughKey(batchId, throughKey)],
    );
    return countsFromRows(res.rows);
  }

  async openItemsThrough(batchId: string, throughKey: string, limit: number, afterKey: string | null = null): Promise<string[]> {
    const res = await this.pool.query<{ key: string }>(
      `SELECT key FROM batch_items WHERE batch_id = $1 AND ${LIVE} AND key > $2 AND key <= $3 ORDER BY key LIMIT $4`,
      [batchId, afterKey ?? '', checkThroughKey(batchId, throughKey), checkPageLimit(batchId, limit)],
    );
    return res.rows.map((r) => r.key);
  }

  /** The item's status, or `not_found`. */
  private async itemStatus(batchId: string, key: string): Promise<BatchItemStatus> {
    const res = await this.pool.query<{ status: BatchItemStatus }>('SELECT status FROM batch_items WHERE batch_id = $1 AND key = $2', [batchId, key]);
    if (!res.rows[0]) throw BatchStoreError.notFound(batchId, key);
    return res.rows[0].status;
  }

  async markItemRunning(batchId: string, key: string, attempt: number, at?: string): Promise<ItemWriteOutcome> {
    const mark = parseRunningMark(batchId, key, attempt, at);
    const res = await this.pool.query(
      `UPDATE batch_items SET status = 'running', attempts = $1, lease_expires_ms = NULL, started_at = COALESCE(started_at, $2), updated_at = $3
       WHERE batch_id = $4 AND key = $5 AND ${LIVE}`,
      [mark.attempt, mark.at, now(), batchId, key],
    );
    return res.rowCount === 1 ? { written: true, status: 'running' } : { written: false, status: await this.itemStatus(batchId, key) };
  }

  async acquireItemLease(batchId: string, key: string, attempt: number, leaseMs: number, nowMs: number = Date.now()): Promise<ItemLeaseOutcome> {
    const lease = parseItemLease(batchId, key, attempt, leaseMs, nowMs);
    return withTransaction(this.pool, async (client) => {
      // The batch row lock serializes lease takers of one batch in every process, so each one's
      // count already sees the leases committed before it.
      const batch = await client.query<{ max_running_items: number }>('SELECT max_running_items FROM batches WHERE batch_id = $1 FOR UPDATE', [batchId]);
      const maxRunning = batch.rows[0]?.max_running_items;
      if (maxRunning === undefined) throw BatchStoreError.notFound(batchId);
      // FOR UPDATE: a terminal write racing this one waits, and then clears the lease it finds.
      const res = await client.query<{ status: BatchItemStatus; attempts: number }>(
        'SELECT status, attempts FROM batch_items WHERE batch_id = $1 AND key = $2 FOR UPDATE',
        [batchId, key],
      );
      const item = res.rows[0];
      if (!item) throw BatchStoreError.notFound(batchId, key);
      if (leaseFenced(item, lease.attempt)) return { kind: 'fenced', status: item.status };
      const leased = await client.query<{ n: number }>(
        `SELECT count(*)::integer AS n FROM batch_items WHERE batch_id = $1 AND key <> $2 AND status = 'running' AND lease_expires_ms > $3`,
        [batchId, key, lease.nowMs],
      );
      const n = leased.rows[0]?.n ?? 0;
      if (n >= maxRunning) return { kind: 'full', leased: n, maxRunning };
      const expiresAtMs = lease.nowMs + lease.leaseMs;
      await client.query(
        `UPDATE batch_items SET status = 'running', attempts = $1, lease_expires_ms = $2, started_at = COALESCE(started_at, $3), updated_at = $4
         WHERE batch_id = $5 AND key = $6`,
        [lease.attempt, expiresAtMs, new Date(lease.nowMs).toISOString(), now(), batchId, key],
      );
      return { kind: 'leased', expiresAtMs };
    });
  }

  async releaseItemLease(batchId: string, key: string, attempt: number): Promise<void> {
    const leaseAttempt = parseLeaseAttempt(batchId, key, attempt);
    await this.pool.query(
      'UPDATE batch_items SET lease_expires_ms = NULL WHERE batch_id = $1 AND key = $2 AND attempts = $3 AND lease_expires_ms IS NOT NULL',
      [batchId, key, leaseAttempt],
    );
  }

  async recordAttempt(batchId: string, key: string, attempt: BatchAttemptInput): Promise<ItemWriteOutcome> {
    return withTransaction(this.pool, async (client) => {
      // FOR UPDATE: concurrent appends to one item serialize instead of losing each other.
      const res = await client.query<{ status: BatchItemStatus; attempt_history: unknown }>(
        'SELECT status, attempt_history FROM batch_items WHERE batch_id = $1 AND key = $2 FOR UPDATE',
        [batchId, key],
      );
      const row = res.rows[0];
      if (!row) throw BatchStoreError.notFound(batchId, key);
      const { next } = appendAttempt(batchId, key, row.attempt_history, attempt);
      if (next === null) return { written: true, status: row.status };
      if (row.status !== 'pending' && row.status !== 'running') return { written: false, status: row.status };
      await client.query('UPDATE batch_items SET attempt_history = $1::jsonb, updated_at = $2 WHERE batch_id = $3 AND key = $4', [
        toStoredJson(next), now(), batchId, key,
      ]);
      return { written: true, status: row.status };
    });
  }

  async completeItem(batchId: string, key: string, completion: CompleteBatchItemInput): Promise<ItemWriteOutcome> {
    const limits = await this.pool.query<{ max_result_chars: number; result_preview_max_chars: number }>(
      'SELECT max_result_chars, result_preview_max_chars FROM batches WHERE batch_id = $1',
      [batchId],
    );
    const l = limits.rows[0];
    if (!l) throw BatchStoreError.notFound(batchId);
    const c = prepareCompletion(batchId, key, completion, { maxResultChars: l.max_result_chars, previewChars: l.result_preview_max_chars });
    // The fence: the WHERE clause refuses the write once the row is terminal.
    const res = await this.pool.query(
      `UPDATE batch_items SET status = $1, result = $2, result_preview = $3, result_chars = $4, result_truncated = $5, result_sha256 = $6,
         stop_reason = $7, error = $8, attempts = $9, usage = $10::jsonb, started_at = COALESCE($11, started_at), completed_at = $12,
         updated_at = $13, lease_expires_ms = NULL
       WHERE batch_id = $14 AND key = $15 AND ${LIVE}`,
      [c.status, bytes(c.result), bytes(c.resultPreview), c.resultChars, c.resultTruncated, c.resultSha256, c.stopReason, c.error,
        c.attempts, c.usage === null ? null : toStoredJson(c.usage), c.startedAt, c.completedAt, now(), batchId, key],
    );
    if (res.rowCount === 1) return { written: true, status: c.status };
    const current = await this.pool.query<{ status: BatchItemStatus; attempts: number; completed_at: Date | null; result_sha256: string | null }>(
      'SELECT status, attempts, completed_at, result_sha256 FROM batch_items WHERE batch_id = $1 AND key = $2',
      [batchId, key],
    );
    const row = current.rows[0];
    if (!row) throw BatchStoreError.notFound(batchId, key);
    return { written: isSameCompletion({ ...row, completed_at: iso(row.completed_at) }, c), status: row.status };
  }

  async cancelBatch(batchId: string, ownerId: string): Promise<CancelBatchOutcome> {
    return withTransaction(this.pool, async (client) => {
      const res = await client.query<{ status: string }>('SELECT status FROM batches WHERE batch_id = $1 AND owner_id = $2 FOR UPDATE', [batchId, ownerId]);
      if (!res.rows[0]) throw BatchStoreError.notFound(batchId);
      let cancelledItems = 0;
      if (res.rows[0].status === 'running') {
        const at = now();
        cancelledItems = await cancelLiveItems(client, batchId, at);
        await setBatchStatus(client, batchId, 'cancelled', at);
      }
      return { cancelledItems, batch: (await readBatch(client, batchId, ownerId))! };
    });
  }

  async finishBatch(batchId: string, status: FinalBatchStatus): Promise<FinishBatchOutcome> {
    const final = parseBatchInput(FinalBatchStatusSchema, status, batchId);
    return withTransaction(this.pool, async (client) => {
      const res = await client.query<{ status: string }>('SELECT status FROM batches WHERE batch_id = $1 FOR UPDATE', [batchId]);
      if (!res.rows[0]) throw BatchStoreError.notFound(batchId);
      if (res.rows[0].status !== 'running') return { written: res.rows[0].status === final, batch: (await readBatch(client, batchId, null))! };
      const at = now();
      if (final === 'completed') {
        const live = await client.query<{ n: number }>(`SELECT count(*)::integer AS n FROM batch_items WHERE batch_id = $1 AND ${LIVE}`, [batchId]);
        const n = live.rows[0]?.n ?? 0;
        if (n > 0) throw BatchStoreError.invalid(batchId, null, [`status: cannot complete a batch with ${n} nonterminal items`]);
      } else {
        await cancelLiveItems(client, batchId, at);
      }
      await setBatchStatus(client, batchId, final, at);
      return { written: true, batch: (await readBatch(client, batchId, null))! };
    });
  }

  async *exportItems(batchId: string, ownerId: string): AsyncGenerator<BatchItemRecord> {
    const owned = await this.pool.query('SELECT 1 FROM batches WHERE batch_id = $1 AND owner_id = $2', [batchId, ownerId]);
    if (owned.rowCount === 0) return;
    yield* pageByKey(async (afterKey, limit) => {
      const res = await this.pool.query<PgItemRow & { result: Buffer | null }>(
        `SELECT ${ITEM_COLUMNS}, i.result FROM batch_items i WHERE i.batch_id = $1 AND i.key > $2 ORDER BY i.key LIMIT $3`,
        [batchId, afterKey, limit],
      );
      return res.rows.map((r) => toItemRecord({ ...itemRow(r), result: text(r.result) }));
    });
  }
}

// unnest() turns one array per column into rows: one statement per chunk, with a fixed number of
// parameters however many items the chunk holds.
async function insertItems(db: Queryable, batch: ParsedBatch, at: string): Promise<void> {
  for (let start = 0; start < batch.items.length; start += INSERT_CHUNK_SIZE) {
    const chunk = batch.items.slice(start, start + INSERT_CHUNK_SIZE);
    await db.query(
      `INSERT INTO batch_items (batch_id, key, position, prompt, acceptance_criteria, status, updated_at)
       SELECT $1, t.key, t.position, t.prompt, t.criteria::jsonb, 'pending', $2
       FROM unnest($3::text[], $4::integer[], $5::text[], $6::text[]) AS t (key, position, prompt, criteria)`,
      [
        batch.batchId,
        at,
        chunk.map((item) => item.key),
        chunk.map((_, i) => start + i),
        chunk.map((item) => item.prompt),
        chunk.map((item) => (item.acceptance_criteria === undefined ? null : toStoredJson(item.acceptance_criteria))),
      ],
    );
  }
}

async function readBatch(db: Queryable, batchId: string, ownerId: string | null): Promise<BatchRecord | null> {
  const res = ownerId === null
    ? await db.query<PgBatchRow>(`${SELECT_BATCH} WHERE b.batch_id = $1`, [batchId])
    : await db.query<PgBatchRow>(`${SELECT_BATCH} WHERE b.batch_id = $1 AND b.owner_id = $2`, [batchId, ownerId]);
  const r = res.rows[0];
  if (!r) return null;
  return toBatchRecord({ ...r, created_at: r.created_at.toISOString(), updated_at: r.updated_at.toISOString(), finished_at: iso(r.finished_at) });
}

async function cancelLiveItems(db: Queryable, batchId: string, at: string): Promise<number> {
  const res = await db.query(`UPDATE batch_items SET status = 'cancelled', completed_at = $1, updated_at = $1, lease_expires_ms = NULL WHERE batch_id = $2 AND ${LIVE}`, [at, batchId]);
  return res.rowCount ?? 0;
}

async function setBatchStatus(db: Queryable, batchId: string, status: FinalBatchStatus, at: string): Promise<void> {
  await db.query('UPDATE batches SET status = $1, updated_at = $2, finished_at = $2 WHERE batch_id = $3', [status, at, batchId]);
}
