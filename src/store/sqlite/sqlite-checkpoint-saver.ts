import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import type { SqliteDatabase } from './open-sqlite-database';

/**
 * LangGraph's SQLite checkpointer on the stores' database, with its tables created at once: the
 * saver creates them lazily on reads and writes but not before `deleteThread`, which a first
 * attempt calls before anything else.
 */
export class SqliteCheckpointSaver extends SqliteSaver {
  constructor(db: SqliteDatabase) {
    super(db);
    this.setup();
  }
}
