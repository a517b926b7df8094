import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import type { Pool } from 'pg';
import { LOCK_CLASS } from './postgres-database';

/**
 * LangGraph's PostgreSQL checkpointer on the stores' pool, in the pool's current schema (so a
 * `search_path` that isolates a deployment isolates its checkpoints too), with its tables created.
 * Its own migrations are not safe to run from two processes at once, so workers starting together
 * take turns under a session advisory lock.
 * @internal
 */
export async function openPostgresCheckpoints(pool: Pool): Promise<PostgresSaver> {
  const client = await pool.connect();
  try {
    const { rows } = await client.query<{ schema: string }>('SELECT current_schema() AS schema');
    const schema = rows[0]?.schema ?? 'public';
    await client.query('SELECT pg_advisory_lock($1, hashtext($2))', [LOCK_CLASS.checkpointSetup, schema]);
    try {
      const saver = new PostgresSaver(pool, undefined, { schema });
      await saver.setup();
      return saver;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [LOCK_CLASS.checkpointSetup, schema]);
    }
  } finally {
    client.release();
  }
}
