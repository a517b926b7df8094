import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

/** An open better-sqlite3 connection. @internal */
export type SqliteDatabase = Database.Database;

/**
 * SQLite `PRAGMA synchronous` level (`store.sqlite_synchronous`). FULL syncs the WAL on every
 * commit, so an OS crash or power loss never rolls back a write an activity already reported done;
 * NORMAL only syncs at checkpoints (faster, may lose the last commits on power loss).
 */
export type SqliteSynchronous = 'FULL' | 'NORMAL';

/** Options of {@link openSqliteDatabase}. @internal */
export interface OpenSqliteDatabaseOptions {
  /** @default 'FULL' */
  readonly synchronous?: SqliteSynchronous;
}

// Append only: `user_version` counts the entries already applied, so an edit would never run.
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE thread_messages (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     thread_id TEXT NOT NULL,
     run_id TEXT NOT NULL,
     key TEXT NOT NULL,
     message TEXT NOT NULL,
     UNIQUE (thread_id, key)
   );
   CREATE TABLE run_events (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     dedupe_key TEXT NOT NULL UNIQUE,
     run_id TEXT NOT NULL,
     thread_id TEXT NOT NULL,
     category TEXT NOT NULL,
     event TEXT NOT NULL,
     task_id TEXT,
     created_at TEXT NOT NULL,
     payload TEXT NOT NULL
   );
   CREATE INDEX run_events_by_run ON run_events (run_id, seq);
   CREATE INDEX run_events_by_task ON run_events (run_id, task_id, seq);
   CREATE TABLE task_results (
     ref TEXT PRIMARY KEY,
     run_id TEXT NOT NULL,
     task_id TEXT NOT NULL,
     attempt INTEGER NOT NULL,
     text TEXT NOT NULL
   );`,
  `CREATE TABLE managed_subagents (
     name TEXT PRIMARY KEY,
     definition TEXT NOT NULL,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );
   CREATE TABLE managed_lead_agents (
     name TEXT PRIMARY KEY,
     definition TEXT NOT NULL,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );`,
  // Durable batches (SPEC C.3). Item keys compare in BINARY collation: code-point order, as in
  // PostgreSQL's COLLATE "C" column.
  `CREATE TABLE batches (
     batch_id TEXT PRIMARY KEY,
     owner_id TEXT NOT NULL,
     run_id TEXT,
     title TEXT NOT NULL,
     subagent_type TEXT NOT NULL,
     status TEXT NOT NULL CHECK (status IN ('running', 'completed', 'cancelled', 'failed')),
     max_live_items INTEGER NOT NULL,
     max_running_items INTEGER NOT NULL,
     max_attempts INTEGER NOT NULL,
     max_result_chars INTEGER NOT NULL,
     result_preview_max_chars INTEGER NOT NULL,
     item_count INTEGER NOT NULL,
     content_sha256 TEXT NOT NULL,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     finished_at TEXT
   );
   CREATE INDEX batches_by_owner ON batches (owner_id, created_at);
   CREATE TABLE batch_items (
     batch_id TEXT NOT NULL REFERENCES batches (batch_id) ON DELETE CASCADE,
     key TEXT NOT NULL,
     position INTEGER NOT NULL,
     prompt TEXT NOT NULL,
     acceptance_criteria TEXT,
     status TEXT NOT NULL CHECK (status IN ('pending', 'running', 'completed', 'failed', 'cancelled', 'timed_out')),
     attempts INTEGER NOT NULL DEFAULT 0,
     attempt_history TEXT NOT NULL DEFAULT '[]',
     result TEXT,
     result_preview TEXT,
     result_chars INTEGER,
     result_truncated INTEGER NOT NULL DEFAULT 0,
     result_sha256 TEXT,
     stop_reason TEXT,
     error TEXT,
     usage TEXT,
     started_at TEXT,
     completed_at TEXT,
     updated_at TEXT NOT NULL,
     PRIMARY KEY (batch_id, key)
   );
   CREATE INDEX batch_items_by_status ON batch_items (batch_id, status, key);`,
  // Lead compaction summaries, kept apart from the transcript: write-once per (thread, coverage
  // point); the latest row (highest seq) of a thread is its current summary.
  `CREATE TABLE thread_summaries (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     thread_id TEXT NOT NULL,
     through_key TEXT NOT NULL,
     run_id TEXT NOT NULL,
     summary TEXT NOT NULL,
     UNIQUE (thread_id, through_key)
   );
   CREATE INDEX thread_summaries_by_thread ON thread_summaries (thread_id, seq);`,
  // Thread ownership: one row per thread (or batch id), written once by the first run or batch.
  `CREATE TABLE threads (
     thread_id TEXT PRIMARY KEY,
     owner_id TEXT NOT NULL,
     kind TEXT NOT NULL CHECK (kind IN ('run', 'batch')),
     claimed_at TEXT NOT NULL
   );`,
  // A task's end row, found at once by the writers' fence (the task index would scan all its rows).
  `CREATE INDEX run_events_task_ends ON run_events (run_id, task_id, thread_id) WHERE event = 'subagent.end';`,
  // The running lease of an item's current attempt (epoch ms it expires at; null: none). Only the
  // few items executing hold one, so their count per batch reads a small partial index.
  `ALTER TABLE batch_items ADD COLUMN lease_expires_ms INTEGER;
   CREATE INDEX batch_items_leased ON batch_items (batch_id, lease_expires_ms) WHERE lease_expires_ms IS NOT NULL;`,
  // What each running lead task has spent so far: one row per task, its latest attempt's.
  `CREATE TABLE task_progress (
     thread_id TEXT NOT NULL,
     run_id TEXT NOT NULL,
     task_id TEXT NOT NULL,
     attempt INTEGER NOT NULL,
     progress TEXT NOT NULL,
     PRIMARY KEY (thread_id, run_id, task_id)
   );`,
];

/**
 * Opens (creating if needed) the SQLite database and applies pending migrations.
 * WAL mode lets the worker write while a CLI process reads the same file; `synchronous` (per
 * connection, so set on every open) defaults to FULL for durability.
 */
export function openSqliteDatabase(path: string, options: OpenSqliteDatabaseOptions = {}): SqliteDatabase {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, { timeout: BUSY_TIMEOUT_MS });
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  enableWal(db);
  // Interpolated into SQL: only the two literal levels of the type can get here.
  db.pragma(`synchronous = ${options.synchronous === 'NORMAL' ? 'NORMAL' : 'FULL'}`);
  db.pragma('foreign_keys = ON');
  migrate(db);
  return db;
}

const BUSY_TIMEOUT_MS = 5000;

/**
 * Switches a new database file to WAL (it stays WAL afterwards). SQLite answers that switch with
 * SQLITE_BUSY at once, without waiting on the busy timeout, while another process opens the same new
 * file, so retry for as long as the busy timeout would have waited.
 */
function enableWal(db: SqliteDatabase): void {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (err) {
      const busy = err instanceof Error && 'code' in err && err.code === 'SQLITE_BUSY';
      if (!busy || Date.now() > deadline) throw err;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    }
  }
}

function migrate(db: SqliteDatabase): void {
  const currentVersion = () => db.pragma('user_version', { simple: true }) as number;
  if (currentVersion() >= MIGRATIONS.length) return;
  // Several processes may open a new file at once: read the version again under the write lock,
  // so only the first one migrates and the others see its result.
  db.transaction(() => {
    MIGRATIONS.slice(currentVersion()).forEach((sql) => db.exec(sql));
    db.pragma(`user_version = ${MIGRATIONS.length}`);
  }).immediate();
}
