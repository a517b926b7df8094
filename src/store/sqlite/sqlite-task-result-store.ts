import { taskResultRef, type TaskResultStore } from '../task-result-store';
import type { SqliteDatabase } from './open-sqlite-database';
import type { SqliteGroupCommit } from './sqlite-group-commit';

/** SQLite implementation of {@link TaskResultStore}. */
export class SqliteTaskResultStore implements TaskResultStore {
  // Prepared once: every subagent execution writes a result, and the write of its end reads it.
  readonly #put;
  readonly #get;

  constructor(
    db: SqliteDatabase,
    private readonly group: SqliteGroupCommit,
  ) {
    this.#put = db.prepare<[string, string, string, number, string]>('INSERT OR REPLACE INTO task_results (ref, run_id, task_id, attempt, text) VALUES (?, ?, ?, ?, ?)');
    this.#get = db.prepare<[string], { text: string }>('SELECT text FROM task_results WHERE ref = ?');
  }

  async putResult(entry: { threadId: string; runId: string; taskId: string; attempt: number; text: string }): Promise<string> {
    const ref = taskResultRef(entry.threadId, entry.runId, entry.taskId, entry.attempt);
    await this.group.run(() => this.#put.run(ref, entry.runId, entry.taskId, entry.attempt, entry.text));
    return ref;
  }

  async getResult(ref: string): Promise<string | null> {
    const row = this.#get.get(ref);
    return row?.text ?? null;
  }
}
