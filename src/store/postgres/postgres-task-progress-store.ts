import type { Pool } from 'pg';
import { toStoredJson } from '../stored-json';
import { parseStoredProgress, type StoredTaskProgress, type TaskProgressKey, type TaskProgressStore } from '../task-progress-store';

/** PostgreSQL implementation of {@link TaskProgressStore}. */
export class PostgresTaskProgressStore implements TaskProgressStore {
  constructor(private readonly pool: Pool) {}

  async putProgress(key: TaskProgressKey, stored: StoredTaskProgress): Promise<void> {
    await this.pool.query(
      `INSERT INTO task_progress (thread_id, run_id, task_id, attempt, progress) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (thread_id, run_id, task_id) DO UPDATE SET attempt = EXCLUDED.attempt, progress = EXCLUDED.progress
       WHERE EXCLUDED.attempt >= task_progress.attempt`,
      [key.threadId, key.runId, key.taskId, stored.attempt, toStoredJson(stored.progress)],
    );
  }

  async getProgress(key: TaskProgressKey): Promise<StoredTaskProgress | null> {
    const res = await this.pool.query<{ attempt: number; progress: unknown }>(
      'SELECT attempt, progress FROM task_progress WHERE thread_id = $1 AND run_id = $2 AND task_id = $3',
      [key.threadId, key.runId, key.taskId],
    );
    const row = res.rows[0];
    return row === undefined ? null : parseStoredProgress(row.attempt, row.progress);
  }
}
