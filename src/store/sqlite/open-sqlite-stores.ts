import type { Stores } from '../stores';
import { openSqliteDatabase, type OpenSqliteDatabaseOptions } from './open-sqlite-database';
import { SqliteAgentDefinitionStore } from './sqlite-agent-definition-store';
import { SqliteBatchStore } from './sqlite-batch-store';
import { SqliteCheckpointSaver } from './sqlite-checkpoint-saver';
import { SqliteGroupCommit } from './sqlite-group-commit';
import { SqliteRunEventStore } from './sqlite-run-event-store';
import { SqliteTaskProgressStore } from './sqlite-task-progress-store';
import { SqliteTaskResultStore } from './sqlite-task-result-store';
import { SqliteThreadMessageStore } from './sqlite-thread-message-store';
import { SqliteThreadOwnerStore } from './sqlite-thread-owner-store';
import { SqliteThreadSummaryStore } from './sqlite-thread-summary-store';

/**
 * Opens (creating and migrating if needed) the SQLite database at `path` (`:memory:` for a
 * throwaway one) and returns the stores. `close()` closes the database.
 * @internal
 */
export function openSqliteStores(path: string, options: OpenSqliteDatabaseOptions = {}): Stores {
  const db = openSqliteDatabase(path, options);
  // The writes every task makes (step rows, results, its tool message, a batch item's row) share commits with those of the others.
  const group = new SqliteGroupCommit(db);
  return {
    messages: new SqliteThreadMessageStore(db, group),
    summaries: new SqliteThreadSummaryStore(db),
    events: new SqliteRunEventStore(db, group),
    results: new SqliteTaskResultStore(db, group),
    progress: new SqliteTaskProgressStore(db, group),
    agents: new SqliteAgentDefinitionStore(db),
    batches: new SqliteBatchStore(db, group),
    threads: new SqliteThreadOwnerStore(db),
    // LangGraph's own tables (`checkpoints`, `writes`), in the same file.
    checkpoints: new SqliteCheckpointSaver(db, group),
    close: async () => {
      group.commit();
      db.close();
    },
  };
}
