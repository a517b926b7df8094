import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfigText } from '../../src/config';
import { openConfiguredStores, openStores } from '../../src/store';
import * as sqliteDatabase from '../../src/store/sqlite/open-sqlite-database';
import { batchLeaseColumnSpec, batchLeaseSharingSpec, persistenceSpec, storeConformanceSpec, threadOwnerSharingSpec } from './conformance';

const dirs: string[] = [];
const tempDir = (): string => dirs[dirs.push(mkdtempSync(join(tmpdir(), 'deerflow-store-'))) - 1]!;
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('SQLite :memory:', () => storeConformanceSpec(() => openStores({ dataDir: '/nonexistent-unused', postgresUrl: null, sqlitePath: ':memory:' })));
describe('SQLite file', () => {
  storeConformanceSpec(() => openStores({ dataDir: tempDir(), postgresUrl: null }));
  persistenceSpec(async () => {
    const sqlitePath = join(tempDir(), 'sub', 'store.db');
    return () => openStores({ dataDir: '/nonexistent-unused', postgresUrl: null, sqlitePath });
  });
  threadOwnerSharingSpec(async () => {
    const sqlitePath = join(tempDir(), 'store.db');
    return () => openStores({ dataDir: '/nonexistent-unused', postgresUrl: null, sqlitePath });
  });
  batchLeaseSharingSpec(async () => {
    const sqlitePath = join(tempDir(), 'store.db');
    return () => openStores({ dataDir: '/nonexistent-unused', postgresUrl: null, sqlitePath });
  });
  batchLeaseColumnSpec(async () => {
    const dataDir = tempDir();
    const stores = await openStores({ dataDir, postgresUrl: null });
    const raw = new Database(join(dataDir, 'deerflow.db'), { readonly: true });
    const column = raw.prepare<[string]>('SELECT key, lease_expires_ms FROM batch_items WHERE batch_id = ?');
    return {
      stores,
      leaseColumn: async (batchId) =>
        Object.fromEntries((column.all(batchId) as { key: string; lease_expires_ms: number | null }[]).map((r) => [r.key, r.lease_expires_ms])),
      close: async () => {
        raw.close();
        await stores.close();
      },
    };
  });

  it('creates <dataDir>/deerflow.db, creating missing folders', async () => {
    const dataDir = join(tempDir(), 'nested', 'data');
    const stores = await openStores({ dataDir, postgresUrl: null });
    await stores.close();
    expect(existsSync(join(dataDir, 'deerflow.db'))).toBe(true);
  });

  it('several processes opening a new database file at once all succeed (migrations run once)', async () => {
    const dataDir = tempDir();
    // Every child loads the module first, then waits for the same instant, so the opens collide.
    const startAt = Date.now() + 3_000;
    const script = [
      `const m = require('./src/store/sqlite/open-sqlite-database');`,
      // A timer, not a spin loop: spinning children would starve the one holding the lock.
      `setTimeout(() => m.openSqliteDatabase(${JSON.stringify(join(dataDir, 'deerflow.db'))}).close(), Math.max(0, ${startAt} - Date.now()));`,
    ].join('\n');
    // A child's end in full (a signal, what it printed on stderr), so a failure says how it ended.
    const ends = await Promise.all(
      Array.from({ length: 6 }, () =>
        new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) => {
          const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', '-e', script], { cwd: join(__dirname, '..', '..'), stdio: ['ignore', 'ignore', 'pipe'] });
          let stderr = '';
          child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
          child.on('close', (code, signal) => resolve({ code, signal, stderr }));
        }),
      ),
    );
    expect(ends).toEqual(Array.from({ length: 6 }, () => ({ code: 0, signal: null, stderr: '' })));
  });

  it('processes claiming one new thread at the same instant agree on one owner', async () => {
    const sqlitePath = join(tempDir(), 'deerflow.db');
    await (await openStores({ dataDir: '/nonexistent-unused', postgresUrl: null, sqlitePath })).close();
    const startAt = Date.now() + 3_000;
    const script = (user: string): string =>
      [
        `const { openSqliteStores } = require('./src/store/sqlite/open-sqlite-stores');`,
        `const stores = openSqliteStores(${JSON.stringify(sqlitePath)});`,
        `setTimeout(() => stores.threads.claim('contested', ${JSON.stringify(user)}, 'run').then((o) => { process.stdout.write(o.ownerId); return stores.close(); }), Math.max(0, ${startAt} - Date.now()));`,
      ].join('\n');
    const owners = await Promise.all(
      ['p0', 'p1', 'p2', 'p3'].map(
        (user) =>
          new Promise<string>((resolve, reject) => {
            const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', '-e', script(user)], { cwd: join(__dirname, '..', '..'), stdio: ['ignore', 'pipe', 'inherit'] });
            let out = '';
            child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
            child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`claimer ${user} exited with ${code}`))));
          }),
      ),
    );
    expect(new Set(owners).size).toBe(1);
    expect(['p0', 'p1', 'p2', 'p3']).toContain(owners[0]);
  });

  it('sets PRAGMA synchronous from sqliteSynchronous (or the config\'s store.sqlite_synchronous): FULL (2) by default, NORMAL (1) on request, WAL either way', async () => {
    // The pragma is per connection: read it on the very handle openStores opened.
    const open = jest.spyOn(sqliteDatabase, 'openSqliteDatabase');
    try {
      const cases = [
        [undefined, 2],
        ['FULL', 2],
        ['NORMAL', 1],
      ] as const;
      for (const [sqliteSynchronous, expected] of cases) {
        open.mockClear();
        const stores = await openStores({ dataDir: tempDir(), postgresUrl: null, ...(sqliteSynchronous === undefined ? {} : { sqliteSynchronous }) });
        try {
          const db = open.mock.results[0]?.value as sqliteDatabase.SqliteDatabase | undefined;
          expect(db?.pragma('synchronous', { simple: true })).toBe(expected);
          expect(db?.pragma('journal_mode', { simple: true })).toBe('wal');
        } finally {
          await stores.close();
        }
      }
      // As the config's store section says: its data folder and its synchronous setting.
      open.mockClear();
      const dataDir = tempDir();
      const configured = await openConfiguredStores(parseConfigText(`store: { data_dir: '${dataDir}', sqlite_synchronous: NORMAL }`, null).store);
      try {
        expect(open.mock.calls[0]?.[0]).toBe(join(dataDir, 'deerflow.db'));
        const db = open.mock.results[0]?.value as sqliteDatabase.SqliteDatabase | undefined;
        expect(db?.pragma('synchronous', { simple: true })).toBe(1);
      } finally {
        await configured.close();
      }
      const memory = sqliteDatabase.openSqliteDatabase(':memory:');
      expect(memory.pragma('synchronous', { simple: true })).toBe(2);
      memory.close();
    } finally {
      open.mockRestore();
    }
  });

  it('records the schema version and reopening does not re-run migrations', async () => {
    const dataDir = tempDir();
    for (let i = 0; i < 2; i += 1) await (await openStores({ dataDir, postgresUrl: null })).close();
    const raw = new Database(join(dataDir, 'deerflow.db'), { readonly: true });
    try {
      expect(raw.pragma('user_version', { simple: true })).toBe(8);
      const tables = raw
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        .all()
        .map((r) => (r as { name: string }).name);
      // `checkpoints` and `writes` are LangGraph's checkpointer's, created when the stores open.
      expect(tables).toEqual([
        'batch_items', 'batches', 'checkpoints', 'managed_lead_agents', 'managed_subagents', 'run_events', 'task_progress', 'task_results', 'thread_messages', 'thread_summaries', 'threads', 'writes',
      ]);
    } finally {
      raw.close();
    }
  });
});
