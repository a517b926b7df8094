import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStores } from '../../src/store';
import { openSqliteDatabase, type SqliteDatabase } from '../../src/store/sqlite/open-sqlite-database';
import { SqliteGroupCommit } from '../../src/store/sqlite/sqlite-group-commit';
import { SqliteCheckpointSaver } from '../../src/store/sqlite/sqlite-checkpoint-saver';
import { AIMessage } from '@langchain/core/messages';
import { emptyCheckpoint, type Checkpoint, type CheckpointMetadata } from '@langchain/langgraph-checkpoint';

const dirs: string[] = [];
const tempDir = (): string => dirs[dirs.push(mkdtempSync(join(tmpdir(), 'deerflow-group-'))) - 1]!;
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

let db: SqliteDatabase;
let path: string;
beforeEach(() => {
  path = join(tempDir(), 'group.db');
  db = openSqliteDatabase(path);
  db.exec('CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER NOT NULL)');
});
afterEach(() => db.close());

const insert = (k: string, v: number) => () => db.prepare('INSERT INTO t (k, v) VALUES (?, ?)').run(k, v).changes;
const rows = (from: SqliteDatabase = db) => from.prepare('SELECT k, v FROM t ORDER BY k').all();

/** A group commit on `db` and a count of the transactions it commits (its only IMMEDIATE ones). */
function countedGroup(): { group: SqliteGroupCommit; commits: () => number } {
  const real = db.transaction.bind(db);
  let commits = 0;
  const transaction = jest.spyOn(db, 'transaction').mockImplementation(((fn: (...args: unknown[]) => unknown) => {
    const built = real(fn);
    const counted = (...args: unknown[]) => built(...args);
    return Object.assign(counted, {
      default: built.default,
      deferred: built.deferred,
      exclusive: built.exclusive,
      immediate: (...args: unknown[]) => {
        commits += 1;
        return built.immediate(...args);
      },
    });
  }) as typeof db.transaction);
  const group = new SqliteGroupCommit(db);
  transaction.mockRestore();
  return { group, commits: () => commits };
}

test('writes asked for in one turn of the event loop share one commit, each with its own result', async () => {
  const { group, commits } = countedGroup();
  const results = await Promise.all([group.run(insert('a', 1)), group.run(insert('b', 2)), group.run(() => 'read back')]);
  expect(results).toEqual([1, 1, 'read back']);
  expect(commits()).toBe(1);
  expect(rows()).toEqual([
    { k: 'a', v: 1 },
    { k: 'b', v: 2 },
  ]);
  // Asked for after the group committed: a group of its own.
  await group.run(insert('c', 3));
  expect(commits()).toBe(2);
});

test('a write that throws rolls back alone and rejects only its caller', async () => {
  const { group, commits } = countedGroup();
  const failing = () => {
    insert('half', 9)();
    return insert('a', 0)(); // the key is taken by the first write of the group
  };
  const settled = await Promise.allSettled([group.run(insert('a', 1)), group.run(failing), group.run(insert('b', 2))]);
  expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  // The group, rolled back, then each write alone.
  expect(commits()).toBe(4);
  expect(String((settled[1] as PromiseRejectedResult).reason)).toMatch(/UNIQUE constraint failed/);
  expect(rows()).toEqual([
    { k: 'a', v: 1 },
    { k: 'b', v: 2 },
  ]);
});

test('a database another connection keeps locked fails the whole group at once, without trying each write again', async () => {
  const { group, commits } = countedGroup();
  db.pragma('busy_timeout = 100');
  const locker = new Database(path);
  locker.exec('BEGIN IMMEDIATE');
  try {
    const settled = await Promise.allSettled([group.run(insert('a', 1)), group.run(insert('b', 2))]);
    expect(settled.map((s) => (s.status === 'rejected' ? (s.reason as { code?: string }).code : s.status))).toEqual(['SQLITE_BUSY', 'SQLITE_BUSY']);
    expect(commits()).toBe(1);
  } finally {
    locker.exec('ROLLBACK');
    locker.close();
  }
  expect(rows()).toEqual([]);
});

test('a caller hears of its write only once it is committed: another connection sees it then', async () => {
  const group = new SqliteGroupCommit(db);
  const reader = new Database(path, { readonly: true });
  try {
    const written = group.run(insert('a', 1));
    expect(rows(reader)).toEqual([]);
    await written;
    expect(db.inTransaction).toBe(false);
    expect(rows(reader)).toEqual([{ k: 'a', v: 1 }]);
  } finally {
    reader.close();
  }
});

test('the stores commit writes still queued when they close', async () => {
  const dataDir = tempDir();
  const stores = await openStores({ dataDir, postgresUrl: null });
  const ref = stores.results.putResult({ threadId: 'thread-1', runId: 'run-1', taskId: '0.0', attempt: 1, text: 'kept' });
  await stores.close();
  await expect(ref).resolves.toBe('result:thread-1:run-1:0.0:1');
  const reopened = await openStores({ dataDir, postgresUrl: null });
  try {
    expect(await reopened.results.getResult('result:thread-1:run-1:0.0:1')).toBe('kept');
  } finally {
    await reopened.close();
  }
});

test("a task's tool message goes through the group commit, like its result: others see neither before the commit", async () => {
  const dataDir = tempDir();
  const stores = await openStores({ dataDir, postgresUrl: null });
  const reader = new Database(join(dataDir, 'deerflow.db'), { readonly: true });
  const messages = () => reader.prepare('SELECT key FROM thread_messages').all();
  const results = () => reader.prepare('SELECT ref FROM task_results').all();
  try {
    const message = stores.messages.putMessageIfAbsent({ threadId: 'thread-1', runId: 'run-1', key: 'tool:call-1', message: { type: 'tool', data: { content: 'done', tool_call_id: 'call-1' } } as never });
    const result = stores.results.putResult({ threadId: 'thread-1', runId: 'run-1', taskId: '0.0', attempt: 1, text: 'done' });
    expect(messages()).toEqual([]);
    expect(results()).toEqual([]);
    await expect(message).resolves.toEqual({ inserted: true });
    await result;
    expect(messages()).toEqual([{ key: 'tool:call-1' }]);
    expect(results()).toEqual([{ ref: 'result:thread-1:run-1:0.0:1' }]);
    // A second put of the key leaves the row as it is; a replace of a missing key still throws.
    await expect(stores.messages.putMessageIfAbsent({ threadId: 'thread-1', runId: 'run-1', key: 'tool:call-1', message: { type: 'tool', data: { content: 'other', tool_call_id: 'call-1' } } as never })).resolves.toEqual({ inserted: false });
    await expect(stores.messages.replaceMessage('thread-1', 'tool:missing', { type: 'tool', data: { content: 'x', tool_call_id: 'x' } } as never)).rejects.toThrow('No message tool:missing in thread thread-1 to replace');
  } finally {
    reader.close();
    await stores.close();
  }
});

test("a batch item's running mark, tries and terminal write go through the group commit: others see them once committed, fences hold", async () => {
  const dataDir = tempDir();
  const stores = await openStores({ dataDir, postgresUrl: null });
  const reader = new Database(join(dataDir, 'deerflow.db'), { readonly: true });
  const row = (key: string) => reader.prepare('SELECT status, attempt_history, result FROM batch_items WHERE batch_id = ? AND key = ?').get('b1', key);
  try {
    await stores.batches.createBatch(
      { batchId: 'b1', ownerId: 'owner-1', title: 'Grouped', subagentType: 'general-purpose', items: [{ key: 'a', prompt: 'pa' }, { key: 'b', prompt: 'pb' }], limits: { maxLiveItems: 2, maxRunningItems: 2, maxAttempts: 3 } },
      { maxItems: 10 },
    );
    const at = '2025-01-01T00:00:00.000Z';
    const markA = stores.batches.markItemRunning('b1', 'a', 1, at);
    const markB = stores.batches.markItemRunning('b1', 'b', 1, at);
    expect(row('a')).toMatchObject({ status: 'pending' });
    await expect(Promise.all([markA, markB])).resolves.toEqual([{ written: true, status: 'running' }, { written: true, status: 'running' }]);
    expect(row('a')).toMatchObject({ status: 'running' });

    const tried = stores.batches.recordAttempt('b1', 'b', { attempt: 1, outcome: 'failed', error: 'boom', at });
    const done = stores.batches.completeItem('b1', 'a', { status: 'completed', result: 'answer', attempts: 1, startedAt: at, completedAt: at });
    // In the same group: a write that throws (no such item) rejects alone.
    const missing = stores.batches.markItemRunning('b1', 'zzz', 1, at);
    expect(row('a')).toMatchObject({ status: 'running', result: null });
    await expect(missing).rejects.toThrow(/zzz/);
    await expect(done).resolves.toEqual({ written: true, status: 'completed' });
    await expect(tried).resolves.toEqual({ written: true, status: 'running' });
    expect(row('a')).toMatchObject({ status: 'completed', result: 'answer' });
    expect(JSON.parse((row('b') as { attempt_history: string }).attempt_history)).toEqual([{ attempt: 1, outcome: 'failed', error: 'boom', at }]);

    // The fence: a terminal row refuses a later mark and a different terminal write, and says what it holds.
    await expect(stores.batches.markItemRunning('b1', 'a', 2, at)).resolves.toEqual({ written: false, status: 'completed' });
    await expect(stores.batches.completeItem('b1', 'a', { status: 'failed', error: 'late', attempts: 2, completedAt: at })).resolves.toEqual({ written: false, status: 'completed' });
    expect(row('a')).toMatchObject({ status: 'completed', result: 'answer' });
  } finally {
    reader.close();
    await stores.close();
  }
});

test("the checkpointer's writes of many subagents share commits, read back as LangGraph's saver wrote them; an empty thread's delete writes nothing", async () => {
  const { group, commits } = countedGroup();
  const saver = new SqliteCheckpointSaver(db, group);
  const config = (thread: string) => ({ configurable: { thread_id: thread, checkpoint_ns: '' } });
  const checkpoint = (id: string, text: string): Checkpoint => ({ ...emptyCheckpoint(), id, channel_values: { messages: [new AIMessage({ id: `m-${id}`, content: text })] }, channel_versions: { messages: 1 } });
  const metadata: CheckpointMetadata = { source: 'loop', step: 1, parents: {} };

  // Three subagents store a checkpoint at the same moment, then its writes: two commits in all.
  const stored = await Promise.all(['t1', 't2', 't3'].map((thread) => saver.put(config(thread), checkpoint(`c-${thread}`, `from ${thread}`), metadata)));
  await Promise.all(stored.map((at, i) => saver.putWrites(at, [['messages', [`write ${i}`]]], `task-${i}`)));
  expect(commits()).toBe(2);

  const tuple = await saver.getTuple(config('t2'));
  expect(tuple?.checkpoint.id).toBe('c-t2');
  expect((tuple?.checkpoint.channel_values['messages'] as AIMessage[]).map((m) => m.content)).toEqual(['from t2']);
  expect(tuple?.metadata).toMatchObject({ source: 'loop', step: 1 });
  expect(tuple?.pendingWrites).toEqual([['task-1', 'messages', ['write 1']]]);

  await saver.deleteThread('nobody');
  expect(commits()).toBe(2);
  await saver.deleteThread('t2');
  expect(commits()).toBe(3);
  expect(await saver.getTuple(config('t2'))).toBeUndefined();
  expect((await saver.getTuple(config('t1')))?.checkpoint.id).toBe('c-t1');
});
