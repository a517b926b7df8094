import { toStoredJson } from '../stored-json';
import { parseStoredProgress, type StoredTaskProgress, type TaskProgressKey, type TaskProgressStore } from '../task-progress-store';
import type { SqliteDatabase } from './open-sqlite-database';
import type { SqliteGroupCommit } from './sqlite-group-commit';

/** SQLite implementation of {@link TaskProgressStore}. */
export class SqliteTaskProgressStore implements TaskProgressStore {
  // Prepared once: a running task writes one row before each of its model and tool calls.
  readonly #put;
  readonly #get;

  constructor(
    db: SqliteDatabase,
    private readonly group: SqliteGroupCommit,
  ) {
    this.#put = db.prepare<[string, string, string, number, string]>(
      `INSERT INTO task_progress (thread_id, run_id, task_id, attempt, progress) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (thread_id, run_id, task_id) DO UPDATE SET attempt = excluded.attempt, progress = excluded.progress
       WHERE excluded.attempt >= task_progress.attempt`,
    );
    this.#get = db.prepare<[string, string, string]>('SELECT attempt, progress FROM task_progress WHERE thread_id = ? AND run_id = ? AND task_id = ?');
  }

  async putProgress(key: TaskProgressKey, stored: StoredTaskProgress): Promise<void> {
    const progress = toStoredJson(stored.progress);
    await this.group.run(() => this.#put.run(key.threadId, key.runId, key.taskId, stored.attempt, progress));
  }

  async getProgress(key: TaskProgressKey): Promise<StoredTaskProgress | null> {
    const row = this.#get.get(key.threadId, key.runId, key.taskId) as { attempt: number; progress: string } | undefined;
    return row === undefined ? null : parseStoredProgress(row.attempt, JSON.parse(row.progress) as unknown);
  }
}
