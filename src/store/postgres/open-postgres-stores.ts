import { Pool } from 'pg';
import type { Stores } from '../stores';
import { openPostgresCheckpoints } from './open-postgres-checkpoints';
import { migratePostgres } from './postgres-database';
import { PostgresAgentDefinitionStore } from './postgres-agent-definition-store';
import { PostgresBatchStore } from './postgres-batch-store';
import { PostgresRunEventStore } from './postgres-run-event-store';
import { PostgresTaskProgressStore } from './postgres-task-progress-store';
import { PostgresTaskResultStore } from './postgres-task-result-store';
import { PostgresThreadMessageStore } from './postgres-thread-message-store';
import { PostgresThreadOwnerStore } from './postgres-thread-owner-store';
import { PostgresThreadSummaryStore } from './postgres-thread-summary-store';

/** The URL with its password masked, for error messages. */
function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable URL)';
  }
}

/**
 * Opens a connection pool on `url` (a libpq-style `postgres://` URL; `?options=-c search_path=x`
 * selects a schema), applies pending migrations, and returns the stores. `close()` ends the pool.
 * @throws Error naming the (password-masked) URL when the server cannot be reached or migrated.
 * @internal
 */
export async function openPostgresStores(url: string): Promise<Stores> {
  const pool = new Pool({ connectionString: url, max: 10 });
  // An idle pooled connection that drops (server restart) emits 'error' on the pool; unhandled it
  // would crash the worker. The pool discards that connection and the next query opens a new one.
  pool.on('error', () => undefined);
  // The same drop while a client is checked out between two queries (LangGraph's checkpointer holds
  // one for a transaction) is emitted on the client: the query in flight fails on its own.
  pool.on('connect', (client) => client.on('error', () => undefined));
  let checkpoints;
  try {
    await migratePostgres(pool);
    checkpoints = await openPostgresCheckpoints(pool);
  } catch (err) {
    await pool.end().catch(() => undefined);
    const reason = err instanceof Error ? err.message : String(err);
    throw new Error(`Cannot open the PostgreSQL store at ${redact(url)}: ${reason}`, { cause: err });
  }
  return {
    messages: new PostgresThreadMessageStore(pool),
    summaries: new PostgresThreadSummaryStore(pool),
    events: new PostgresRunEventStore(pool),
    results: new PostgresTaskResultStore(pool),
    progress: new PostgresTaskProgressStore(pool),
    agents: new PostgresAgentDefinitionStore(pool),
    batches: new PostgresBatchStore(pool),
    threads: new PostgresThreadOwnerStore(pool),
    checkpoints,
    close: () => pool.end(),
  };
}
