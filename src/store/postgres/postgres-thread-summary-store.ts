import type { Pool } from 'pg';
import type { ThreadSummaryRecord, ThreadSummaryStore } from '../thread-summary-store';

interface Row {
  thread_id: string;
  through_key: string;
  run_id: string;
  summary: Buffer;
}

const toRecord = (r: Row): ThreadSummaryRecord => ({
  threadId: r.thread_id,
  throughKey: r.through_key,
  runId: r.run_id,
  text: r.summary.toString('utf8'),
});

/**
 * PostgreSQL implementation of {@link ThreadSummaryStore}. The text is UTF-8 `bytea`, as task
 * results are: PostgreSQL text cannot hold U+0000, and summaries are stored exactly.
 */
export class PostgresThreadSummaryStore implements ThreadSummaryStore {
  constructor(private readonly pool: Pool) {}

  async putSummaryIfAbsent(record: ThreadSummaryRecord): Promise<{ inserted: boolean; summary: ThreadSummaryRecord }> {
    const res = await this.pool.query<Row>(
      `INSERT INTO thread_summaries (thread_id, through_key, run_id, summary) VALUES ($1, $2, $3, $4)
       ON CONFLICT (thread_id, through_key) DO NOTHING
       RETURNING thread_id, through_key, run_id, summary`,
      [record.threadId, record.throughKey, record.runId, Buffer.from(record.text, 'utf8')],
    );
    const inserted = res.rows[0];
    if (inserted !== undefined) return { inserted: true, summary: toRecord(inserted) };
    // ON CONFLICT waited for the other writer to commit, so its row is visible now.
    const existing = await this.pool.query<Row>(
      'SELECT thread_id, through_key, run_id, summary FROM thread_summaries WHERE thread_id = $1 AND through_key = $2',
      [record.threadId, record.throughKey],
    );
    const row = existing.rows[0];
    if (row === undefined) throw new Error(`Summary of thread ${record.threadId} through ${record.throughKey} vanished after its write`);
    return { inserted: false, summary: toRecord(row) };
  }

  async latestSummary(threadId: string): Promise<ThreadSummaryRecord | null> {
    const res = await this.pool.query<Row>(
      'SELECT thread_id, through_key, run_id, summary FROM thread_summaries WHERE thread_id = $1 ORDER BY seq DESC LIMIT 1',
      [threadId],
    );
    const row = res.rows[0];
    return row === undefined ? null : toRecord(row);
  }
}
