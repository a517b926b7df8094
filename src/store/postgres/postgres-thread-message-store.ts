import type { StoredMessage } from '@langchain/core/messages';
import type { Pool } from 'pg';
import { toStoredJson } from '../stored-json';
import type { ThreadMessageRecord, ThreadMessageStore } from '../thread-message-store';

interface Row {
  thread_id: string;
  run_id: string;
  key: string;
  message: StoredMessage;
}

/** PostgreSQL implementation of {@link ThreadMessageStore}; messages are `jsonb`. */
export class PostgresThreadMessageStore implements ThreadMessageStore {
  constructor(private readonly pool: Pool) {}

  async putMessageIfAbsent(record: ThreadMessageRecord): Promise<{ inserted: boolean }> {
    const res = await this.pool.query(
      `INSERT INTO thread_messages (thread_id, run_id, key, message) VALUES ($1, $2, $3, $4::jsonb)
       ON CONFLICT (thread_id, key) DO NOTHING`,
      [record.threadId, record.runId, record.key, toStoredJson(record.message)],
    );
    return { inserted: res.rowCount === 1 };
  }

  async putMessagesIfAbsent(records: readonly ThreadMessageRecord[]): Promise<{ inserted: boolean }[]> {
    if (records.length === 0) return [];
    // One statement; rows are inserted in the order given (ORDER BY ord), so `seq` keeps it.
    const res = await this.pool.query<Pick<Row, 'thread_id' | 'key'>>(
      `INSERT INTO thread_messages (thread_id, run_id, key, message)
       SELECT t, r, k, m::jsonb FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS x(t, r, k, m, ord)
       ORDER BY ord
       ON CONFLICT (thread_id, key) DO NOTHING
       RETURNING thread_id, key`,
      [records.map((r) => r.threadId), records.map((r) => r.runId), records.map((r) => r.key), records.map((r) => toStoredJson(r.message))],
    );
    const inserted = new Set(res.rows.map((row) => JSON.stringify([row.thread_id, row.key])));
    // A key given twice was inserted by its first record only.
    return records.map((r) => ({ inserted: inserted.delete(JSON.stringify([r.threadId, r.key])) }));
  }

  async replaceMessage(threadId: string, key: string, message: StoredMessage): Promise<void> {
    const res = await this.pool.query('UPDATE thread_messages SET message = $1::jsonb WHERE thread_id = $2 AND key = $3', [
      toStoredJson(message),
      threadId,
      key,
    ]);
    if (res.rowCount !== 1) throw new Error(`No message ${key} in thread ${threadId} to replace`);
  }

  async getMessage(threadId: string, key: string): Promise<StoredMessage | null> {
    const res = await this.pool.query<Pick<Row, 'message'>>('SELECT message FROM thread_messages WHERE thread_id = $1 AND key = $2', [
      threadId,
      key,
    ]);
    return res.rows[0]?.message ?? null;
  }

  async listMessages(threadId: string): Promise<ThreadMessageRecord[]> {
    const res = await this.pool.query<Row>(
      'SELECT thread_id, run_id, key, message FROM thread_messages WHERE thread_id = $1 ORDER BY seq',
      [threadId],
    );
    return res.rows.map((r) => ({ threadId: r.thread_id, runId: r.run_id, key: r.key, message: r.message }));
  }
}
