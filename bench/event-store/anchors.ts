/**
 * Reference writers for the event-store benchmark, timed in the same run as the store's `putBatch`:
 * absolute figures on a shared machine swing between runs, ratios taken within one run do not.
 * Each writes into a `run_events` table of its own, created by the store's own migrations (same
 * columns, indexes and unique `dedupe_key`), and gets the same rows as the store.
 *
 * - row-at-a-time: a batch written the way the release before the multi-row `putBatch` wrote it;
 * - raw INSERT floor (SQLite): the least a batch can cost with these indexes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { TASK_END_EVENT, type RunEvent } from '../../src/contracts';
import type { NewRunEvent } from '../../src/store';
import { LOCK_CLASS, migratePostgres, withTransaction } from '../../src/store/postgres/postgres-database';
import { openSqliteDatabase, type SqliteDatabase } from '../../src/store/sqlite/open-sqlite-database';
import { toStoredJson } from '../../src/store/stored-json';
import { SQLITE_SYNCHRONOUS, type BackendName } from './backends';

export const ROW_AT_A_TIME = 'row-at-a-time';
export const RAW_FLOOR = 'raw INSERT floor';

export interface AnchorWriter {
  readonly label: string;
  /** Writes one batch; resolves to the number of rows written. */
  write(rows: readonly NewRunEvent[]): Promise<number>;
  /** Closes the connection and removes the table's data. Safe to call twice. */
  close(): Promise<void>;
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | null = null;
  return () => (done ??= fn());
}

interface SqliteRow {
  seq: number;
  run_id: string;
  thread_id: string;
  category: string;
  event: string;
  task_id: string | null;
  created_at: string;
  payload: string;
}

/**
 * The previous release's SQLite `putBatch`: statement and transaction prepared per call, one
 * `INSERT ... RETURNING *` per row with the end-row fence inside it, every row read back and decoded.
 */
function sqliteRowAtATime(db: SqliteDatabase): (rows: readonly NewRunEvent[]) => RunEvent[] {
  return (rows) => {
    const insert = db.prepare(
      `INSERT OR IGNORE INTO run_events (dedupe_key, run_id, thread_id, category, event, task_id, created_at, payload)
       SELECT @dedupeKey, @runId, @threadId, @category, @event, @taskId, @createdAt, @payload
       WHERE @event = @endEvent OR @taskId IS NULL OR NOT EXISTS (
         SELECT 1 FROM run_events WHERE run_id = @runId AND task_id = @taskId AND thread_id = @threadId AND event = @endEvent)
       RETURNING *`,
    );
    const write = db.transaction((batch: readonly NewRunEvent[]) =>
      batch.flatMap((e) => {
        const row = insert.get({
          dedupeKey: e.dedupeKey,
          runId: e.runId,
          threadId: e.threadId,
          category: e.category,
          event: e.event,
          taskId: e.taskId,
          createdAt: new Date().toISOString(),
          payload: toStoredJson(e.payload),
          endEvent: TASK_END_EVENT,
        }) as SqliteRow | undefined;
        if (!row) return [];
        const { seq, run_id: runId, thread_id: threadId, category, event, task_id: taskId, created_at: createdAt, payload } = row;
        return [{ seq, runId, threadId, category, event, taskId, createdAt, payload: JSON.parse(payload) as unknown }];
      }),
    );
    return write.immediate(rows);
  };
}

/** A bare prepared INSERT per row in one transaction: no fence, no dedupe lookup, nothing read back. */
function sqliteFloor(db: SqliteDatabase): (rows: readonly NewRunEvent[]) => number {
  const insert = db.prepare<[string, string, string, string, string, string | null, string, string]>(
    `INSERT INTO run_events (dedupe_key, run_id, thread_id, category, event, task_id, created_at, payload) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const write = db.transaction((batch: readonly NewRunEvent[]) => {
    const createdAt = new Date().toISOString();
    for (const e of batch) insert.run(e.dedupeKey, e.runId, e.threadId, e.category, e.event, e.taskId, createdAt, JSON.stringify(e.payload));
    return batch.length;
  });
  return (rows) => write.immediate(rows);
}

/** Each SQLite anchor on a new database file of its own, opened like the store's (migrations, WAL, synchronous). */
function openSqliteAnchors(): AnchorWriter[] {
  const dir = mkdtempSync(join(tmpdir(), 'deerflow-bench-anchors-'));
  const opened: SqliteDatabase[] = [];
  const removeAll = once(async () => {
    for (const db of opened) db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  try {
    const open = (file: string) => {
      const db = openSqliteDatabase(join(dir, file), { synchronous: SQLITE_SYNCHRONOUS });
      opened.push(db);
      return db;
    };
    const rowAtATime = sqliteRowAtATime(open('row-at-a-time.db'));
    const floor = sqliteFloor(open('floor.db'));
    return [
      { label: ROW_AT_A_TIME, write: async (rows) => rowAtATime(rows).length, close: removeAll },
      { label: RAW_FLOOR, write: async (rows) => floor(rows), close: removeAll },
    ];
  } catch (err) {
    void removeAll();
    throw err;
  }
}

interface PostgresRow {
  seq: string;
  run_id: string;
  thread_id: string;
  category: string;
  event: string;
  task_id: string | null;
  created_at: Date;
  payload: unknown;
}

/**
 * The previous release's PostgreSQL `putBatch`: BEGIN, one advisory lock per run, one
 * `INSERT ... ON CONFLICT DO NOTHING RETURNING` per row with the end-row fence inside it, COMMIT.
 */
async function postgresRowAtATime(pool: Pool, rows: readonly NewRunEvent[]): Promise<RunEvent[]> {
  return withTransaction(pool, async (client) => {
    for (const runId of [...new Set(rows.map((e) => e.runId))].sort()) {
      await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOCK_CLASS.runEvents, runId]);
    }
    const written: RunEvent[] = [];
    for (const e of rows) {
      const res = await client.query<PostgresRow>(
        `INSERT INTO run_events (dedupe_key, run_id, thread_id, category, event, task_id, created_at, payload)
         SELECT $1, $2, $3, $4, $5, $6, $7, $8::jsonb
         WHERE $5 = $9 OR $6::text IS NULL OR NOT EXISTS (
           SELECT 1 FROM run_events WHERE run_id = $2 AND task_id = $6 AND thread_id = $3 AND event = $9)
         ON CONFLICT (dedupe_key) DO NOTHING RETURNING seq, run_id, thread_id, category, event, task_id, created_at, payload`,
        [e.dedupeKey, e.runId, e.threadId, e.category, e.event, e.taskId, new Date().toISOString(), toStoredJson(e.payload), TASK_END_EVENT],
      );
      const r = res.rows[0];
      if (r) {
        written.push({ seq: Number(r.seq), runId: r.run_id, threadId: r.thread_id, category: r.category, event: r.event, taskId: r.task_id, createdAt: r.created_at.toISOString(), payload: r.payload });
      }
    }
    return written;
  });
}

/** The PostgreSQL anchor on a new schema of its own, migrated like the store's, dropped on close. */
async function openPostgresAnchors(url: string): Promise<AnchorWriter[]> {
  const schema = `bench_events_rows_${process.pid}_${Date.now().toString(36)}`;
  const admin = new Pool({ connectionString: url, max: 1 });
  admin.on('error', () => undefined);
  const withSchema = new URL(url);
  withSchema.searchParams.set('options', `-c search_path=${schema}`);
  // One connection: the store's writer also holds one at a time.
  const pool = new Pool({ connectionString: withSchema.toString(), max: 1 });
  pool.on('error', () => undefined);
  const close = once(async () => {
    await pool.end().catch(() => undefined);
    try {
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    } finally {
      await admin.end().catch(() => undefined);
    }
  });
  try {
    await admin.query(`CREATE SCHEMA ${schema}`);
    await migratePostgres(pool);
  } catch (err) {
    await close().catch(() => undefined);
    throw err;
  }
  return [{ label: ROW_AT_A_TIME, write: async (rows) => (await postgresRowAtATime(pool, rows)).length, close }];
}

/** The anchors of `backend`; for PostgreSQL on the server at `postgresUrl`, beside the store's schema. */
export async function openAnchors(backend: BackendName, postgresUrl: () => Promise<string>): Promise<AnchorWriter[]> {
  return backend === 'sqlite' ? openSqliteAnchors() : openPostgresAnchors(await postgresUrl());
}
