import type { StoredMessage } from '@langchain/core/messages';
import type { ThreadMessageRecord, ThreadMessageStore } from '../thread-message-store';
import { toStoredJson } from '../stored-json';
import type { SqliteDatabase } from './open-sqlite-database';
import type { SqliteGroupCommit } from './sqlite-group-commit';

interface Row {
  thread_id: string;
  run_id: string;
  key: string;
  message: string;
}

/**
 * SQLite implementation of {@link ThreadMessageStore}. Writes go through the group commit: every
 * task's tool message is written as its task ends, at about the time its siblings' are.
 */
export class SqliteThreadMessageStore implements ThreadMessageStore {
  readonly #insert;
  readonly #replace;
  // Reads prepared once too: every model step lists its thread, every subagent execution reads its call.
  readonly #get;
  readonly #list;

  constructor(
    db: SqliteDatabase,
    private readonly group: SqliteGroupCommit,
  ) {
    this.#insert = db.prepare<[string, string, string, string]>('INSERT OR IGNORE INTO thread_messages (thread_id, run_id, key, message) VALUES (?, ?, ?, ?)');
    this.#replace = db.prepare<[string, string, string]>('UPDATE thread_messages SET message = ? WHERE thread_id = ? AND key = ?');
    this.#get = db.prepare<[string, string], Pick<Row, 'message'>>('SELECT message FROM thread_messages WHERE thread_id = ? AND key = ?');
    this.#list = db.prepare<[string], Row>('SELECT thread_id, run_id, key, message FROM thread_messages WHERE thread_id = ? ORDER BY seq');
  }

  async putMessageIfAbsent(record: ThreadMessageRecord): Promise<{ inserted: boolean }> {
    const message = toStoredJson(record.message);
    const info = await this.group.run(() => this.#insert.run(record.threadId, record.runId, record.key, message));
    return { inserted: info.changes === 1 };
  }

  async putMessagesIfAbsent(records: readonly ThreadMessageRecord[]): Promise<{ inserted: boolean }[]> {
    if (records.length === 0) return [];
    const rows = records.map((r) => [r.threadId, r.runId, r.key, toStoredJson(r.message)] as const);
    return this.group.run(() => rows.map((row) => ({ inserted: this.#insert.run(...row).changes === 1 })));
  }

  async replaceMessage(threadId: string, key: string, message: StoredMessage): Promise<void> {
    const json = toStoredJson(message);
    const info = await this.group.run(() => this.#replace.run(json, threadId, key));
    if (info.changes !== 1) throw new Error(`No message ${key} in thread ${threadId} to replace`);
  }

  async getMessage(threadId: string, key: string): Promise<StoredMessage | null> {
    const row = this.#get.get(threadId, key);
    return row ? (JSON.parse(row.message) as StoredMessage) : null;
  }

  async listMessages(threadId: string): Promise<ThreadMessageRecord[]> {
    const rows = this.#list.all(threadId);
    return rows.map((r) => ({
      threadId: r.thread_id,
      runId: r.run_id,
      key: r.key,
      message: JSON.parse(r.message) as StoredMessage,
    }));
  }
}
