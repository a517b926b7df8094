import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AIMessage, HumanMessage, ToolMessage, type StoredMessage } from '@langchain/core/messages';
import {
  DEFAULT_LIST_EVENTS_LIMIT,
  messageKeys,
  openStores,
  taskResultRef,
  type NewRunEvent,
  type Stores,
} from '../../../src/store';

const memory = (): Stores => openStores({ dataDir: '/nonexistent-unused', postgresUrl: null, sqlitePath: ':memory:' });

function event(dedupeKey: string, overrides: Partial<NewRunEvent> = {}): NewRunEvent {
  return {
    dedupeKey,
    runId: 'run-1',
    threadId: 'thread-1',
    category: 'subagent',
    event: 'subagent.step',
    taskId: 'call_a',
    payload: { key: dedupeKey },
    ...overrides,
  };
}

const human = (text: string): StoredMessage => new HumanMessage(text).toDict();
const aiText = (text: string): StoredMessage => new AIMessage(text).toDict();

describe('SQLite run events', () => {
  let stores: Stores;
  beforeEach(() => {
    stores = memory();
  });
  afterEach(async () => {
    await stores.close();
  });

  it('putBatch returns the written rows with increasing seq and the stored fields', async () => {
    const before = new Date().toISOString();
    const rows = await stores.events.putBatch([
      event('e1', { event: 'subagent.start', payload: { task_id: 'call_a', description: 'Inspect' } }),
      event('e2', { taskId: null, category: 'other', event: 'run.note', payload: ['x', 1, null] }),
    ]);
    expect(rows).toHaveLength(2);
    const [first, second] = rows;
    expect(first).toEqual({
      seq: expect.any(Number),
      runId: 'run-1',
      threadId: 'thread-1',
      category: 'subagent',
      event: 'subagent.start',
      taskId: 'call_a',
      createdAt: expect.any(String),
      payload: { task_id: 'call_a', description: 'Inspect' },
    });
    expect(second).toMatchObject({ category: 'other', event: 'run.note', taskId: null, payload: ['x', 1, null] });
    expect(second!.seq).toBeGreaterThan(first!.seq);
    expect(first!.createdAt >= before).toBe(true);
    expect(first!.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

    const more = await stores.events.putBatch([event('e3')]);
    expect(more[0]!.seq).toBeGreaterThan(second!.seq);
  });

  it('putBatch of nothing writes nothing', async () => {
    expect(await stores.events.putBatch([])).toEqual([]);
    expect(await stores.events.listEvents({ runId: 'run-1' })).toEqual([]);
  });

  it('skips an event whose dedupeKey exists: no row returned, nothing duplicated, first write kept', async () => {
    const [original] = await stores.events.putBatch([event('e1', { payload: { v: 'first' } })]);
    const retried = await stores.events.putBatch([event('e1', { payload: { v: 'second' } }), event('e2')]);
    expect(retried.map((r) => r.payload)).toEqual([{ key: 'e2' }]);
    const all = await stores.events.listEvents({ runId: 'run-1' });
    expect(all.map((r) => r.payload)).toEqual([{ v: 'first' }, { key: 'e2' }]);
    expect(all[0]!.seq).toBe(original!.seq);
  });

  it('skips a duplicate inside one batch', async () => {
    const rows = await stores.events.putBatch([event('same', { payload: 1 }), event('same', { payload: 2 })]);
    expect(rows.map((r) => r.payload)).toEqual([1]);
    expect(await stores.events.listEvents({ runId: 'run-1' })).toHaveLength(1);
  });

  it('listEvents is scoped to the run, in seq order', async () => {
    await stores.events.putBatch([event('a1'), event('b1', { runId: 'run-2' }), event('a2'), event('b2', { runId: 'run-2' })]);
    expect((await stores.events.listEvents({ runId: 'run-1' })).map((r) => r.payload)).toEqual([{ key: 'a1' }, { key: 'a2' }]);
    expect((await stores.events.listEvents({ runId: 'run-2' })).map((r) => r.payload)).toEqual([{ key: 'b1' }, { key: 'b2' }]);
    expect(await stores.events.listEvents({ runId: 'run-3' })).toEqual([]);
  });

  it('filters by taskId, eventTypes and afterSeq together', async () => {
    const rows = await stores.events.putBatch([
      event('1', { event: 'subagent.start' }),
      event('2', { event: 'subagent.step', taskId: 'call_b' }),
      event('3', { event: 'subagent.step' }),
      event('4', { event: 'subagent.step', taskId: null }),
      event('5', { event: 'subagent.end' }),
      event('6', { event: 'subagent.step' }),
    ]);
    const keys = async (q: Omit<Parameters<Stores['events']['listEvents']>[0], 'runId'>): Promise<unknown[]> =>
      (await stores.events.listEvents({ runId: 'run-1', ...q })).map((r) => (r.payload as { key: string }).key);

    expect(await keys({ taskId: 'call_a' })).toEqual(['1', '3', '5', '6']);
    expect(await keys({ taskId: 'call_b' })).toEqual(['2']);
    expect(await keys({ eventTypes: ['subagent.step'] })).toEqual(['2', '3', '4', '6']);
    expect(await keys({ eventTypes: ['subagent.start', 'subagent.end'] })).toEqual(['1', '5']);
    expect(await keys({ afterSeq: rows[2]!.seq })).toEqual(['4', '5', '6']);
    expect(await keys({ taskId: 'call_a', eventTypes: ['subagent.step'], afterSeq: rows[2]!.seq })).toEqual(['6']);
    expect(await keys({ taskId: 'call_a', limit: 2 })).toEqual(['1', '3']);
  });

  it('applies the filters before the limit: paging one task of 600 interleaved rows reaches the tail', async () => {
    const batch: NewRunEvent[] = [];
    for (let i = 0; i < 600; i += 1) {
      batch.push(event(`a-${i}`, { taskId: 'call_a', payload: i }));
      batch.push(event(`b-${i}`, { taskId: 'call_b', payload: -i }));
    }
    await stores.events.putBatch(batch);

    const seen: unknown[] = [];
    let afterSeq: number | undefined;
    let pages = 0;
    for (;;) {
      const page = await stores.events.listEvents({ runId: 'run-1', taskId: 'call_a', afterSeq, limit: 250 });
      if (page.length === 0) break;
      pages += 1;
      expect(page.every((r) => r.taskId === 'call_a')).toBe(true);
      seen.push(...page.map((r) => r.payload));
      afterSeq = page[page.length - 1]!.seq;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(Array.from({ length: 600 }, (_, i) => i));
  });

  it('defaults the limit to 500', async () => {
    expect(DEFAULT_LIST_EVENTS_LIMIT).toBe(500);
    await stores.events.putBatch(Array.from({ length: 600 }, (_, i) => event(`e-${i}`, { payload: i })));
    const page = await stores.events.listEvents({ runId: 'run-1' });
    expect(page).toHaveLength(500);
    expect(page[499]!.payload).toBe(499);
    const rest = await stores.events.listEvents({ runId: 'run-1', afterSeq: page[499]!.seq });
    expect(rest.map((r) => r.payload)).toEqual(Array.from({ length: 100 }, (_, i) => 500 + i));
  });
});

describe('SQLite thread messages', () => {
  let stores: Stores;
  beforeEach(() => {
    stores = memory();
  });
  afterEach(async () => {
    await stores.close();
  });

  it('putMessageIfAbsent: first write wins', async () => {
    const key = messageKeys.input('run-1');
    expect(await stores.messages.putMessageIfAbsent({ threadId: 't1', runId: 'run-1', key, message: human('first') })).toEqual({
      inserted: true,
    });
    expect(await stores.messages.putMessageIfAbsent({ threadId: 't1', runId: 'run-1', key, message: human('second') })).toEqual({
      inserted: false,
    });
    expect(await stores.messages.getMessage('t1', key)).toEqual(human('first'));
    expect(await stores.messages.listMessages('t1')).toHaveLength(1);
  });

  it('the same key in another thread is a different message', async () => {
    const key = messageKeys.input('run-1');
    await stores.messages.putMessageIfAbsent({ threadId: 't1', runId: 'run-1', key, message: human('one') });
    expect((await stores.messages.putMessageIfAbsent({ threadId: 't2', runId: 'run-1', key, message: human('two') })).inserted).toBe(true);
    expect(await stores.messages.getMessage('t2', key)).toEqual(human('two'));
  });

  it('getMessage of a missing key is null', async () => {
    expect(await stores.messages.getMessage('t1', 'run:x:input')).toBeNull();
  });

  it('replaceMessage replaces an existing message in place', async () => {
    await stores.messages.putMessageIfAbsent({ threadId: 't1', runId: 'r1', key: 'k1', message: human('a') });
    await stores.messages.putMessageIfAbsent({ threadId: 't1', runId: 'r1', key: 'k2', message: aiText('b') });
    await stores.messages.replaceMessage('t1', 'k1', human('a2'));
    expect(await stores.messages.getMessage('t1', 'k1')).toEqual(human('a2'));
    expect((await stores.messages.listMessages('t1')).map((r) => r.key)).toEqual(['k1', 'k2']);
  });

  it('replaceMessage on a missing key throws', async () => {
    await expect(stores.messages.replaceMessage('t1', 'nope', human('x'))).rejects.toThrow('No message nope in thread t1 to replace');
    await stores.messages.putMessageIfAbsent({ threadId: 't1', runId: 'r1', key: 'k1', message: human('a') });
    await expect(stores.messages.replaceMessage('t2', 'k1', human('x'))).rejects.toThrow('No message k1 in thread t2 to replace');
  });

  it('listMessages returns the thread transcript in write order across runs', async () => {
    const tool = new ToolMessage({ content: 'Task Succeeded. Result: ok', tool_call_id: 'call_1', name: 'task' }).toDict();
    const writes = [
      { threadId: 't1', runId: 'run-1', key: messageKeys.input('run-1'), message: human('q1') },
      { threadId: 't1', runId: 'run-1', key: messageKeys.ai('run-1', 0), message: aiText('calling') },
      { threadId: 't2', runId: 'run-x', key: messageKeys.input('run-x'), message: human('other thread') },
      { threadId: 't1', runId: 'run-1', key: messageKeys.tool('run-1', 'call_1'), message: tool },
      { threadId: 't1', runId: 'run-2', key: messageKeys.input('run-2'), message: human('q2') },
      { threadId: 't1', runId: 'run-2', key: messageKeys.ai('run-2', 0), message: aiText('a2') },
    ];
    for (const w of writes) await stores.messages.putMessageIfAbsent(w);
    // A rejected duplicate does not move the original.
    await stores.messages.putMessageIfAbsent({ ...writes[0]!, message: human('dup') });

    expect(await stores.messages.listMessages('t1')).toEqual(writes.filter((w) => w.threadId === 't1'));
    expect((await stores.messages.listMessages('t1')).map((r) => r.key)).toEqual([
      'run:run-1:input',
      'run:run-1:ai:0',
      'run:run-1:tool:call_1',
      'run:run-2:input',
      'run:run-2:ai:0',
    ]);
    expect(await stores.messages.listMessages('t3')).toEqual([]);
  });
});

describe('SQLite task results', () => {
  let stores: Stores;
  beforeEach(() => {
    stores = memory();
  });
  afterEach(async () => {
    await stores.close();
  });

  it('formats refs', () => {
    expect(taskResultRef('run-1', 'call_1', 2)).toBe('result:run-1:call_1:2');
  });

  it('put/get round-trips the full text under the ref', async () => {
    const text = `héllo ✓\n${'x'.repeat(100_000)}`;
    const ref = await stores.results.putResult({ runId: 'run-1', taskId: 'call_1', attempt: 1, text });
    expect(ref).toBe('result:run-1:call_1:1');
    expect(await stores.results.getResult(ref)).toBe(text);
  });

  it('keeps attempts apart', async () => {
    const r1 = await stores.results.putResult({ runId: 'run-1', taskId: 'call_1', attempt: 1, text: 'one' });
    const r2 = await stores.results.putResult({ runId: 'run-1', taskId: 'call_1', attempt: 2, text: 'two' });
    expect(r1).not.toBe(r2);
    expect(await stores.results.getResult(r1)).toBe('one');
    expect(await stores.results.getResult(r2)).toBe('two');
  });

  it('an unknown ref is null', async () => {
    expect(await stores.results.getResult('result:run-1:call_9:1')).toBeNull();
  });

  it('an empty text is stored, not confused with a missing one', async () => {
    const ref = await stores.results.putResult({ runId: 'run-1', taskId: 'call_1', attempt: 1, text: '' });
    expect(await stores.results.getResult(ref)).toBe('');
  });
});

describe('openStores', () => {
  it('refuses a postgres URL with a clear error', () => {
    expect(() => openStores({ dataDir: '/tmp/unused', postgresUrl: 'postgres://u:p@localhost/db' })).toThrow(
      'store.postgres_url / DATABASE_URL is set, but this version only ships the SQLite store; unset it to use SQLite.',
    );
  });

  describe('with a database file', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'deerflow-store-'));
    });
    afterEach(() => {
      rmSync(dir, { recursive: true, force: true });
    });

    it('creates <dataDir>/deerflow.db, creating missing folders', async () => {
      const dataDir = join(dir, 'nested', 'data');
      const stores = openStores({ dataDir, postgresUrl: null });
      await stores.events.putBatch([event('e1')]);
      await stores.close();
      expect(existsSync(join(dataDir, 'deerflow.db'))).toBe(true);
    });

    it('data survives close and reopen, and reopening does not re-run migrations', async () => {
      const sqlitePath = join(dir, 'sub', 'store.db');
      const first = openStores({ dataDir: dir, postgresUrl: null, sqlitePath });
      const [written] = await first.events.putBatch([event('e1', { payload: { n: 1 } })]);
      await first.messages.putMessageIfAbsent({ threadId: 't1', runId: 'run-1', key: 'k1', message: human('kept') });
      const ref = await first.results.putResult({ runId: 'run-1', taskId: 'call_1', attempt: 1, text: 'full result' });
      await first.close();

      const second = openStores({ dataDir: dir, postgresUrl: null, sqlitePath });
      expect(await second.events.listEvents({ runId: 'run-1' })).toEqual([written]);
      expect(await second.messages.getMessage('t1', 'k1')).toEqual(human('kept'));
      expect(await second.results.getResult(ref)).toBe('full result');
      // Dedupe keys persist across reopen.
      expect(await second.events.putBatch([event('e1')])).toEqual([]);
      const [next] = await second.events.putBatch([event('e2')]);
      expect(next!.seq).toBeGreaterThan(written!.seq);
      await second.close();

      const third = openStores({ dataDir: dir, postgresUrl: null, sqlitePath });
      expect(await third.events.listEvents({ runId: 'run-1' })).toHaveLength(2);
      await third.close();

      const raw = new Database(sqlitePath, { readonly: true });
      try {
        expect(raw.pragma('user_version', { simple: true })).toBe(1);
        const tables = raw
          .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
          .all()
          .map((r) => (r as { name: string }).name);
        expect(tables).toEqual(['run_events', 'task_results', 'thread_messages']);
      } finally {
        raw.close();
      }
    });
  });
});
