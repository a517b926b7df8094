/**
 * The two store backends as the event-store benchmark uses them: opened through `openStores` on a
 * fresh SQLite file or a fresh PostgreSQL schema, plus what the report needs about each (settings,
 * query plans, storage size) and the cleanup that removes the data again.
 */
import Database from 'better-sqlite3';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Pool } from 'pg';
import { DEFAULT_LIST_EVENTS_LIMIT, openStores, type ListEventsQuery, type SqliteSynchronous, type Stores } from '../../src/store';

export type BackendName = 'sqlite' | 'postgres';
export const BACKENDS: readonly BackendName[] = ['sqlite', 'postgres'];

/** `store.sqlite_synchronous` of the benchmark's SQLite connections: the store's default. */
export const SQLITE_SYNCHRONOUS: SqliteSynchronous = 'FULL';

export interface BenchBackend {
  readonly name: BackendName;
  /** Where the data lives and the durability settings that matter for write throughput. */
  readonly description: string;
  readonly stores: Stores;
  /** Runs after the fill and before the queries; returns a note for the report. */
  prepareForQueries(): Promise<string>;
  /** The plan of the SQL `listEvents` runs for `query` (the SQL mirrors the store's). */
  explain(query: ListEventsQuery): Promise<string[]>;
  /** Size on disk of the event table and its indexes. */
  storage(): Promise<string>;
  /** Closes the stores and removes the data (temp folder / schema). Safe to call twice. */
  close(): Promise<void>;
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | null = null;
  return () => (done ??= fn());
}

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(0)} MB`;
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** The WHERE clause and parameters of the store's `listEvents` (src/store/<backend>/*-run-event-store.ts). */
function sqliteListSql(query: ListEventsQuery): { sql: string; params: Record<string, unknown> } {
  const where = ['run_id = @runId', 'seq > @afterSeq'];
  const params: Record<string, unknown> = { runId: query.runId, afterSeq: query.afterSeq ?? 0, limit: query.limit ?? DEFAULT_LIST_EVENTS_LIMIT };
  if (query.taskId !== undefined) {
    where.push('task_id = @taskId');
    params.taskId = query.taskId;
  }
  if (query.eventTypes !== undefined) {
    where.push('event IN (SELECT value FROM json_each(@eventTypes))');
    params.eventTypes = JSON.stringify(query.eventTypes);
  }
  return { sql: `SELECT * FROM run_events WHERE ${where.join(' AND ')} ORDER BY seq LIMIT @limit`, params };
}

function postgresListSql(query: ListEventsQuery): { sql: string; params: unknown[] } {
  const params: unknown[] = [query.runId, query.afterSeq ?? 0];
  const where = ['run_id = $1', 'seq > $2'];
  if (query.taskId !== undefined) {
    params.push(query.taskId);
    where.push(`task_id = $${params.length}`);
  }
  if (query.eventTypes !== undefined) {
    params.push([...query.eventTypes]);
    where.push(`event = ANY($${params.length}::text[])`);
  }
  params.push(query.limit ?? DEFAULT_LIST_EVENTS_LIMIT);
  const columns = 'seq, run_id, thread_id, category, event, task_id, created_at, payload';
  return { sql: `SELECT ${columns} FROM run_events WHERE ${where.join(' AND ')} ORDER BY seq LIMIT $${params.length}`, params };
}

/** SQLite through `openStores` in a new temp folder (`<dir>/deerflow.db`, WAL), removed on close. */
export async function openSqliteBackend(): Promise<BenchBackend> {
  const dir = mkdtempSync(join(tmpdir(), 'deerflow-bench-events-'));
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  let stores: Stores;
  try {
    stores = await openStores({ dataDir: dir, postgresUrl: null, sqliteSynchronous: SQLITE_SYNCHRONOUS });
  } catch (err) {
    removeDir();
    throw err;
  }
  const path = join(dir, 'deerflow.db');
  // A second connection for EXPLAIN and the journal mode; the store's own connection is not exposed
  // (and `synchronous` is per connection, so the store's is the one it was opened with).
  const inspect = new Database(path, { readonly: true });
  const journal = String(inspect.pragma('journal_mode', { simple: true }));
  return {
    name: 'sqlite',
    description: `${path} (better-sqlite3, SQLite ${String((inspect.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v)}; journal_mode=${journal}, synchronous=${SQLITE_SYNCHRONOUS}, the store's default)`,
    stores,
    prepareForQueries: async () => 'no ANALYZE (the store never runs it)',
    explain: async (query) => {
      const { sql, params } = sqliteListSql(query);
      const rows = inspect.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as Array<{ detail: string }>;
      return rows.map((r) => r.detail);
    },
    storage: async () => {
      const db = fileSize(path);
      const wal = fileSize(`${path}-wal`);
      return `database file ${mb(db)} + WAL ${mb(wal)}`;
    },
    close: once(async () => {
      inspect.close();
      try {
        await stores.close();
      } finally {
        removeDir();
      }
    }),
  };
}

/** PostgreSQL through `openStores` on a new schema (`?options=-c search_path=<schema>`), dropped on close. */
export async function openPostgresBackend(url: string): Promise<BenchBackend> {
  const admin = new Pool({ connectionString: url, max: 2 });
  admin.on('error', () => undefined);
  const schema = `bench_events_${process.pid}_${Date.now().toString(36)}`;
  const dropSchema = once(async () => {
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  });
  let stores: Stores;
  let inspect: Pool;
  try {
    await admin.query(`CREATE SCHEMA ${schema}`);
    const withSchema = new URL(url);
    withSchema.searchParams.set('options', `-c search_path=${schema}`);
    stores = await openStores({ dataDir: '/nonexistent-unused', postgresUrl: withSchema.toString() });
    inspect = new Pool({ connectionString: withSchema.toString(), max: 1 });
    inspect.on('error', () => undefined);
  } catch (err) {
    await dropSchema().catch(() => undefined);
    await admin.end().catch(() => undefined);
    throw err;
  }
  const setting = async (name: string) => (await inspect.query<{ v: string }>(`SELECT current_setting('${name}') AS v`)).rows[0]?.v ?? '?';
  const server = new URL(url);
  const description =
    `${server.host}${server.pathname} schema ${schema} (PostgreSQL ${(await setting('server_version')).split(' ')[0]}; ` +
    `fsync=${await setting('fsync')}, synchronous_commit=${await setting('synchronous_commit')}, shared_buffers=${await setting('shared_buffers')})`;
  return {
    name: 'postgres',
    description,
    stores,
    prepareForQueries: async () => {
      const before = await inspect.query<{ auto: Date | null; n: string }>(
        `SELECT last_autoanalyze AS auto, n_mod_since_analyze AS n FROM pg_stat_user_tables WHERE relname = 'run_events' AND schemaname = current_schema()`,
      );
      const row = before.rows[0];
      await inspect.query('ANALYZE run_events');
      const auto = row?.auto ? `autoanalyze had run, ${row.n} rows changed since` : 'autoanalyze had not run yet';
      return `ANALYZE run_events before the queries (${auto}), as autovacuum would on a long-lived table`;
    },
    explain: async (query) => {
      const { sql, params } = postgresListSql(query);
      const res = await inspect.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${sql}`, params);
      const lines = res.rows.map((r) => r['QUERY PLAN']);
      // Drop the trailing "Planning:" buffers and the timing lines.
      const end = lines.findIndex((line) => /^(Planning|Execution)\b/.test(line));
      return end < 0 ? lines : lines.slice(0, end);
    },
    storage: async () => {
      const res = await inspect.query<{ name: string; bytes: string; kind: string }>(
        `SELECT 'table+toast' AS kind, 'run_events' AS name, pg_table_size('run_events') AS bytes
         UNION ALL
         SELECT 'index', indexrelid::regclass::text, pg_relation_size(indexrelid)
         FROM pg_index WHERE indrelid = 'run_events'::regclass`,
      );
      return res.rows.map((r) => `${r.kind === 'index' ? `index ${r.name}` : r.name} ${mb(Number(r.bytes))}`).join(', ');
    },
    close: once(async () => {
      try {
        await inspect.end().catch(() => undefined);
        await stores.close();
      } finally {
        try {
          await dropSchema();
        } finally {
          await admin.end().catch(() => undefined);
        }
      }
    }),
  };
}

/** A PostgreSQL URL to benchmark against, and how to stop the server when this process started it. */
export interface PostgresServer {
  readonly url: string;
  readonly source: string;
  /** Stops the cluster `scripts/postgres-for-tests.sh` started for us; null when it was running already or the URL was given. */
  readonly stop: (() => Promise<void>) | null;
}

function runScript(args: readonly string[], timeoutMs: number): Promise<{ stdout: string; stderr: string }> {
  const script = resolve(__dirname, '../../scripts/postgres-for-tests.sh');
  return new Promise((resolveRun, reject) => {
    execFile('bash', [script, ...args], { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`scripts/postgres-for-tests.sh ${args.join(' ')} failed: ${err.message}\n${stderr}`));
      else resolveRun({ stdout, stderr });
    });
  });
}

/**
 * The URL given (`--postgres-url` / DEERFLOW_TEST_POSTGRES_URL), else the throwaway test cluster of
 * `scripts/postgres-for-tests.sh`. That script reuses a cluster that is already running (someone
 * else's: never stopped here) and starts one otherwise (stopped again by `stop`).
 */
export async function resolvePostgres(given: string | undefined, log: (line: string) => void): Promise<PostgresServer> {
  if (given !== undefined && given !== '') return { url: given, source: 'given URL', stop: null };
  log('no PostgreSQL URL given: running scripts/postgres-for-tests.sh ...');
  const { stdout, stderr } = await runScript([], 10 * 60_000);
  for (const line of stderr.trim().split('\n')) if (line !== '') log(`  ${line}`);
  const url = stdout.trim().split('\n').pop() ?? '';
  if (!url.startsWith('postgres://')) throw new Error(`scripts/postgres-for-tests.sh printed no URL (stdout: ${JSON.stringify(stdout)})`);
  const startedHere = /starting the test cluster/.test(stderr);
  return {
    url,
    source: startedHere ? 'test cluster started by this benchmark' : 'test cluster that was already running (left running)',
    stop: startedHere
      ? once(async () => {
          const res = await runScript(['--stop'], 120_000);
          for (const line of res.stderr.trim().split('\n')) if (line !== '') log(`  ${line}`);
        })
      : null,
  };
}
