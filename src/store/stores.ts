import type { BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';
import { join } from 'node:path';
import type { StoreConfig } from '../config';
import type { AgentDefinitionStore } from './agent-definition-store';
import type { BatchStore } from './batch-store';
import { openPostgresStores } from './postgres/open-postgres-stores';
import type { RunEventStore } from './run-event-store';
import type { SqliteSynchronous } from './sqlite/open-sqlite-database';
import { openSqliteStores } from './sqlite/open-sqlite-stores';
import type { TaskProgressStore } from './task-progress-store';
import type { TaskResultStore } from './task-result-store';
import type { ThreadOwnerStore } from './thread-owner-store';
import type { ThreadMessageStore } from './thread-message-store';
import type { ThreadSummaryStore } from './thread-summary-store';

/** Every store the worker and clients use, opened together on one backend. */
export interface Stores {
  readonly messages: ThreadMessageStore;
  /** Lead compaction summaries, kept apart from the transcript. */
  readonly summaries: ThreadSummaryStore;
  readonly events: RunEventStore;
  readonly results: TaskResultStore;
  /** What each running lead task has spent so far (the spend a cancelled task keeps). */
  readonly progress: TaskProgressStore;
  readonly agents: AgentDefinitionStore;
  readonly batches: BatchStore;
  /** Who owns each thread (and batch id): claimed by the first run or batch. */
  readonly threads: ThreadOwnerStore;
  /**
   * LangGraph checkpoints of running subagents (one checkpoint thread per task), so an attempt after
   * a lost or stopped worker resumes from the last completed step. Deleted when the task ends.
   */
  readonly checkpoints: BaseCheckpointSaver;
  /** Closes the SQLite database or ends the PostgreSQL pool. */
  close(): Promise<void>;
}

/** Options for {@link openStores}. */
export interface OpenStoresOptions {
  /** Absolute data folder; SQLite lives at `<dataDir>/deerflow.db`. */
  readonly dataDir: string;
  /** `store.postgres_url` (`DATABASE_URL` overrides it); when set, PostgreSQL replaces SQLite. */
  readonly postgresUrl: string | null;
  /** Explicit SQLite path instead of `<dataDir>/deerflow.db` (`:memory:` in tests). Ignored for PostgreSQL. */
  readonly sqlitePath?: string;
  /** `store.sqlite_synchronous`; absent means FULL. Ignored for PostgreSQL. */
  readonly sqliteSynchronous?: SqliteSynchronous;
}

/**
 * Opens the stores and applies pending schema migrations: PostgreSQL when `postgresUrl` is set
 * (multi-machine), else SQLite under `<dataDir>/deerflow.db` (the embedded default).
 * @throws Error when the database cannot be opened or migrated (the PostgreSQL message names the
 *   URL with its password masked).
 */
export async function openStores(options: OpenStoresOptions): Promise<Stores> {
  if (options.postgresUrl !== null) return openPostgresStores(options.postgresUrl);
  return openSqliteStores(options.sqlitePath ?? join(options.dataDir, 'deerflow.db'), {
    synchronous: options.sqliteSynchronous ?? 'FULL',
  });
}

/** {@link openStores} as the config's `store` section names them: what workers, the CLI and test environments open. */
export function openConfiguredStores(store: StoreConfig): Promise<Stores> {
  return openStores({ dataDir: store.data_dir, postgresUrl: store.postgres_url, sqliteSynchronous: store.sqlite_synchronous });
}
