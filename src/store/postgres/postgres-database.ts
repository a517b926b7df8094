import type { Pool, PoolClient } from 'pg';

/**
 * Advisory-lock class ids (first key of the two-key form). The second key is a hash of what is
 * locked: the schema for migrations and checkpoint setup, the run for event writes.
 */
export const LOCK_CLASS = {
  migrations: 0x64660001,
  runEvents: 0x64660002,
  checkpointSetup: 0x64660003,
} as const;

/** Runs `fn` in one transaction on one pooled connection: COMMIT when it resolves, ROLLBACK when it throws. @internal */
export async function withTransaction<T>(pool: Pool, fn: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    client.release();
    return result;
  } catch (err) {
    try {
      await client.query('ROLLBACK');
      client.release();
    } catch (rollbackErr) {
      // A connection that cannot even roll back is broken: destroy it instead of pooling it.
      client.release(rollbackErr instanceof Error ? rollbackErr : true);
    }
    throw err;
  }
}

// Append only: `deerflow_schema_migrations` records the versions applied, so an edit would never run.
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE thread_messages (
     seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
     thread_id text NOT NULL,
     run_id text NOT NULL,
     key text NOT NULL,
     message jsonb NOT NULL,
     UNIQUE (thread_id, key)
   );
   CREATE TABLE run_events (
     seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
     dedupe_key text NOT NULL UNIQUE,
     run_id text NOT NULL,
     thread_id text NOT NULL,
     category text NOT NULL,
     event text NOT NULL,
     task_id text,
     created_at timestamptz NOT NULL,
     payload jsonb NOT NULL
   );
   CREATE INDEX run_events_by_run ON run_events (run_id, seq);
   CREATE INDEX run_events_by_task ON run_events (run_id, task_id, seq);
   CREATE TABLE task_results (
     ref text PRIMARY KEY,
     run_id text NOT NULL,
     task_id text NOT NULL,
     attempt integer NOT NULL,
     text bytea NOT NULL
   );`,
  `CREATE TABLE managed_subagents (
     name text PRIMARY KEY,
     definition jsonb NOT NULL,
     created_at timestamptz NOT NULL,
     updated_at timestamptz NOT NULL
   );
   CREATE TABLE managed_lead_agents (
     name text PRIMARY KEY,
     definition jsonb NOT NULL,
     created_at timestamptz NOT NULL,
     updated_at timestamptz NOT NULL
   );`,
  // Durable batches (SPEC C.3). Keys are COLLATE "C" so the primary key, paging (`key > $after`)
  // and ORDER BY all use code-point order, as SQLite does, whatever the database locale.
  // Results are UTF-8 bytea: text cannot hold U+0000 and results are stored exactly.
  `CREATE TABLE batches (
     batch_id text PRIMARY KEY,
     owner_id text NOT NULL,
     run_id text,
     title text NOT NULL,
     subagent_type text NOT NULL,
     status text NOT NULL CHECK (status IN ('running', 'completed', 'cancelled', 'failed')),
     max_live_items integer NOT NULL,
     max_running_items integer NOT NULL,
     max_attempts integer NOT NULL,
     max_result_chars integer NOT NULL,
     result_preview_max_chars integer NOT NULL,
     item_count integer NOT NULL,
     content_sha256 text NOT NULL,
     created_at timestamptz NOT NULL,
     updated_at timestamptz NOT NULL,
     finished_at timestamptz
   );
   CREATE INDEX batches_by_owner ON batches (owner_id, created_at);
   CREATE TABLE batch_items (
     batch_id text NOT NULL REFERENCES batches (batch_id) ON DELETE CASCADE,
     key text COLLATE "C" NOT NULL,
     position integer NOT NULL,
     prompt text NOT NULL,
     acceptance_criteria jsonb,
     status text NOT NULL CHECK (status IN ('pending', 'running', 'completed', 'failed', 'cancelled', 'timed_out')),
     attempts integer NOT NULL DEFAULT 0,
     attempt_history jsonb NOT NULL DEFAULT '[]',
     result bytea,
     result_preview bytea,
     result_chars integer,
     result_truncated boolean NOT NULL DEFAULT false,
     result_sha256 text,
     stop_reason text,
     error text,
     usage jsonb,
     started_at timestamptz,
     completed_at timestamptz,
     updated_at timestamptz NOT NULL,
     PRIMARY KEY (batch_id, key)
   );
   CREATE INDEX batch_items_by_status ON batch_items (batch_id, status, key);`,
  // Lead compaction summaries, kept apart from the transcript: write-once per (thread, coverage
  // point); the latest row (highest seq) of a thread is its current summary. UTF-8 bytea: stored exactly.
  `CREATE TABLE thread_summaries (
     seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
     thread_id text NOT NULL,
     through_key text NOT NULL,
     run_id text NOT NULL,
     summary bytea NOT NULL,
     UNIQUE (thread_id, through_key)
   );
   CREATE INDEX thread_summaries_by_thread ON thread_summaries (thread_id, seq);`,
  // Thread ownership: one row per thread (or batch id), written once by the first run or batch.
  `CREATE TABLE threads (
     thread_id text PRIMARY KEY,
     owner_id text NOT NULL,
     kind text NOT NULL CHECK (kind IN ('run', 'batch')),
     claimed_at timestamptz NOT NULL
   );`,
  // A task's end row, found at once by the writers' fence (the task index would scan all its rows).
  `CREATE INDEX run_events_task_ends ON run_events (run_id, task_id, thread_id) WHERE event = 'subagent.end';`,
  // The running lease of an item's current attempt (epoch ms it expires at; null: none). Only the
  // few items executing hold one, so their count per batch reads a small partial index.
  `ALTER TABLE batch_items ADD COLUMN lease_expires_ms bigint;
   CREATE INDEX batch_items_leased ON batch_items (batch_id, lease_expires_ms) WHERE lease_expires_ms IS NOT NULL;`,
  // What each running lead task has spent so far: one row per task, its latest attempt's.
  `CREATE TABLE task_progress (
     thread_id text NOT NULL,
     run_id text NOT NULL,
     task_id text NOT NULL,
     attempt integer NOT NULL,
     progress jsonb NOT NULL,
     PRIMARY KEY (thread_id, run_id, task_id)
   );`,
];

/** Number of schema versions this code knows. @internal */
export const POSTGRES_SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Applies pending migrations in one transaction. Several workers may start at once: a
 * transaction-scoped advisory lock (per schema) makes the others wait and then find nothing to do.
 * A database migrated by newer code (higher version) is left as it is.
 * @internal
 */
export async function migratePostgres(pool: Pool): Promise<void> {
  await withTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1, hashtext(current_schema()))', [LOCK_CLASS.migrations]);
    await client.query(
      `CREATE TABLE IF NOT EXISTS deerflow_schema_migrations (
         version integer PRIMARY KEY,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const { rows } = await client.query<{ version: number | null }>('SELECT max(version) AS version FROM deerflow_schema_migrations');
    for (let v = rows[0]?.version ?? 0; v < MIGRATIONS.length; v += 1) {
      await client.query(MIGRATIONS[v]!);
      await client.query('INSERT INTO deerflow_schema_migrations (version) VALUES ($1)', [v + 1]);
    }
  });
}
