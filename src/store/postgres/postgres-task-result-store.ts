import type { Pool } from 'pg';
import { taskResultRef, type TaskResultStore } from '../task-result-store';

/**
 * PostgreSQL implementation of {@link TaskResultStore}. The text is stored as UTF-8 `bytea`, not
 * `text`: PostgreSQL text cannot hold U+0000, and the workflow keeps a sha256 of the exact text.
 */
export class PostgresTaskResultStore implements TaskResultStore {
  constructor(private readonly pool: Pool) {}

  async putResult(entry: { threadId: string; runId: string; taskId: string; attempt: number; text: string }): Promise<string> {
    const ref = taskResultRef(entry.threadId, entry.runId, entry.taskId, entry.attempt);
    await this.pool.query(
      `INSERT INTO task_results (ref, run_id, task_id, attempt, text) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (ref) DO UPDATE SET text = EXCLUDED.text`,
      [ref, entry.runId, entry.taskId, entry.attempt, Buffer.from(entry.text, 'utf8')],
    );
    return ref;
  }

  async getResult(ref: string): Promise<string | null> {
    const res = await this.pool.query<{ text: Buffer }>('SELECT text FROM task_results WHERE ref = $1', [ref]);
    return res.rows[0]?.text.toString('utf8') ?? null;
  }
}
