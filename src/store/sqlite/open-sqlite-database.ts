import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

/** An open better-sqlite3 connection. @internal */
export type SqliteDatabase = Database.Database;

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
];

/**
 * Opens (creating if needed) the SQLite database and applies pending migrations.
 * WAL mode lets the worker write while a CLI process reads the same file.
 */
export function openSqliteDatabase(path: string): SqliteDatabase {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  migrate(db);
  return db;
}

function migrate(db: SqliteDatabase): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  const apply = db.transaction(() => {
    MIGRATIONS.slice(version).forEach((sql) => db.exec(sql));
    db.pragma(`user_version = ${MIGRATIONS.length}`);
  });
  if (version < MIGRATIONS.length) apply.immediate();
}
