import { Pool } from 'pg';
import { openStores } from '../../src/store';
import { describePostgres } from './postgres-test-database';

describe('openStores with a PostgreSQL URL', () => {
  it('names the URL, with the password masked, when the server cannot be reached', async () => {
    const opening = openStores({ dataDir: '/unused', postgresUrl: 'postgres://deerflow:s3cret@127.0.0.1:1/nowhere' });
    await expect(opening).rejects.toThrow(/^Cannot open the PostgreSQL store at postgres:\/\/deerflow:\*\*\*@127\.0\.0\.1:1\/nowhere: /);
    await expect(opening).rejects.not.toThrow(/s3cret/);
  });
});

describePostgres('PostgreSQL migrations', (db) => {
  it('workers starting at once apply each migration exactly once, under the advisory lock', async () => {
    const postgresUrl = await db.freshSchemaUrl();
    const all = await Promise.all(Array.from({ length: 6 }, () => openStores({ dataDir: '/unused', postgresUrl })));
    await Promise.all(all.map((s) => s.close()));
    const pool = new Pool({ connectionString: postgresUrl, max: 1 });
    try {
      const { rows } = await pool.query<{ version: number }>('SELECT version FROM deerflow_schema_migrations ORDER BY version');
      expect(rows.map((r) => r.version)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      const checkpointMigrations = await pool.query<{ v: number }>('SELECT v FROM checkpoint_migrations ORDER BY v');
      const applied = checkpointMigrations.rows.map((r) => r.v);
      expect(applied.length).toBeGreaterThan(0);
      expect(applied).toEqual([...Array(applied.length).keys()]);
      const tables = await pool.query<{ table_name: string }>(
        `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name COLLATE "C"`,
      );
      expect(tables.rows.map((r) => r.table_name)).toEqual([
        'batch_items',
        'batches',
        // LangGraph's checkpointer, set up once under its own lock.
        'checkpoint_blobs',
        'checkpoint_migrations',
        'checkpoint_writes',
        'checkpoints',
        'deerflow_schema_migrations',
        'managed_lead_agents',
        'managed_subagents',
        'run_events',
        'task_progress',
        'task_results',
        'thread_messages',
        'thread_summaries',
        'threads',
      ]);
    } finally {
      await pool.end();
    }
  });
});
