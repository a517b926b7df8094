import { join } from 'node:path';
import type { RunEventStore } from './run-event-store';
import { openSqliteDatabase, type SqliteDatabase } from './sqlite/open-sqlite-database';
import { SqliteRunEventStore } from './sqlite/sqlite-run-event-store';
import { SqliteTaskResultStore } from './sqlite/sqlite-task-result-store';
import { SqliteThreadMessageStore } from './sqlite/sqlite-thread-message-store';
import type { TaskResultStore } from './task-result-store';
import type { ThreadMessageStore } from './thread-message-store';

/** Every store the worker and clients use, opened together on one backend. */
export interface Stores {
  readonly messages: ThreadMessageStore;
  readonly events: RunEventStore;
  readonly results: TaskResultStore;
  close(): Promise<void>;
}

/** Options for {@link openStores}: an absolute data folder, or an explicit SQLite path (`:memory:` in tests). */
export interface OpenStoresOptions {
  readonly dataDir: string;
  readonly postgresUrl: string | null;
  readonly sqlitePath?: string;
}

/**
 * Opens the stores. SQLite under `<dataDir>/deerflow.db` is the embedded default.
 * @throws Error when a PostgreSQL URL is configured: that backend is not available in this version.
 */
export function openStores(options: OpenStoresOptions): Stores {
  if (options.postgresUrl !== null) {
    throw new Error(
      'store.postgres_url / DATABASE_URL is set, but this version only ships the SQLite store; unset it to use SQLite.',
    );
  }
  const db: SqliteDatabase = openSqliteDatabase(options.sqlitePath ?? join(options.dataDir, 'deerflow.db'));
  return {
    messages: new SqliteThreadMessageStore(db),
    events: new SqliteRunEventStore(db),
    results: new SqliteTaskResultStore(db),
    close: async () => {
      db.close();
    },
  };
}
