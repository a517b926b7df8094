import type { Pool, PoolClient } from 'pg';

/**
 * Advisory-lock class ids (first key of the two-key form). The second key is a hash of what is
 * locked: the schema for migrations, the run for event writes.
 */
export const LOCK_CLASS = {
  migrations: 0x64660001,
  runEvents: 0x64660002,
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
