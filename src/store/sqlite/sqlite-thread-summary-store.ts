import type { ThreadSummaryRecord, ThreadSummaryStore } from '../thread-summary-store';
import type { SqliteDatabase } from './open-sqlite-database';

interface Row {
  thread_id: string;
  through_key: string;
  run_id: string;
  summary: string;
}

const toRecord = (r: Row): ThreadSummaryRecord => ({ threadId: r.thread_id, throughKey: r.through_key, runId: r.run_id, text: r.summary });

/** SQLite implementation of {@link ThreadSummaryStore}. */
export class SqliteThreadSummaryStore implements ThreadSummaryStore {
  constructor(private readonly db: SqliteDatabase) {}

  async putSummaryIfAbsent(record: ThreadSummaryRecord): Promise<{ inserted: boolean; summary: ThreadSummaryRecord }> {
    const info = this.db
      .prepare('INSERT OR IGNORE INTO thread_summaries (thread_id, through_key, run_id, summary) VALUES (?, ?, ?, ?)')
      .run(record.threadId, record.throughKey, record.runId, record.text);
    const row = this.db
      .prepare('SELECT thread_id, through_key, run_id, summary FROM thread_summaries WHERE thread_id = ? AND through_key = ?')
      .get(record.threadId, record.throughKey) as Row | undefined;
    if (row === undefined) throw new Error(`Summary of thread ${record.threadId} through ${record.throughKey} vanished after its write`);
    return { inserted: info.changes === 1, summary: toRecord(row) };
  }

  async latestSummary(threadId: string): Promise<ThreadSummaryRecord | null> {
    const row = this.db
      .prepare('SELECT thread_id, through_key, run_id, summary FROM thread_summaries WHERE thread_id = ? ORDER BY seq DESC LIMIT 1')
      .get(threadId) as Row | undefined;
    return row === undefined ? null : toRecord(row);
  }
}
