import { taskResultRef, type TaskResultStore } from '../task-result-store';
import type { SqliteDatabase } from './open-sqlite-database';
import type { SqliteGroupCommit } from './sqlite-group-commit';

/** SQLite implementation of {@link TaskResultStore}. */
export class SqliteTaskResultStore implements TaskResultStore {
  // Prepared once: every subagent execution writes a result.
  readonly #put;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly group: SqliteGroupCommit,
  ) {
    this.#put = db.prepare<[string, string, string, number, string]>('INSERT OR REPLACE INTO task_results (ref, run_id, task_id, attempt, text) VALUES (?, ?, ?, ?, ?)');
  }

  async putResult(entry: { threadId: string; runId: string; taskId: string; attempt: number; text: string }): Promise<string> {
    const ref = taskResultRef(entry.threadId, entry.runId, entry.taskId, entry.attempt);
    await this.group.run(() => this.#put.run(ref, entry.runId, entry.taskId, entry.attempt, entry.text));
    return ref;
  }

  async getResult(ref: string): Promise<string | null> {
    const row = this.db.prepare('SELECT text FROM task_results WHERE ref = ?').get(ref) as { text: string } | undefined;
    return row?.text ?? null;
  }
}
