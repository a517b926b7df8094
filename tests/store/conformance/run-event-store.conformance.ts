import { DEFAULT_LIST_EVENTS_LIMIT, type ListEventsQuery, type NewRunEvent } from '../../../src/store';
import { event, ISO_UTC, useStores, type StoresInit } from './fixtures';

/** RunEventStore contract: idempotent writes by dedupe key, monotonic seq, filters before the limit. */
export function runEventStoreSpec(init: StoresInit): void {
  describe('RunEventStore', () => {
    const stores = useStores(init);
    const keys = async (q: Omit<ListEventsQuery, 'runId'>): Promise<unknown[]> =>
      (await stores().events.listEvents({ runId: 'run-1', ...q })).map((r) => (r.payload as { key: string }).key);

    it('putBatch returns the written rows with increasing seq and the stored fields', async () => {
      const before = new Date().toISOString();
      const rows = await stores().events.putBatch([
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
      expect(first!.createdAt).toMatch(ISO_UTC);

      const more = await stores().events.putBatch([event('e3')]);
      expect(more[0]!.seq).toBeGreaterThan(second!.seq);
      expect(await stores().events.listEvents({ runId: 'run-1' })).toEqual([...rows, ...more]);
    });

    it('putBatch of nothing writes nothing', async () => {
      expect(await stores().events.putBatch([])).toEqual([]);
      expect(await stores().events.listEvents({ runId: 'run-1' })).toEqual([]);
    });

    it('round-trips payloads of every JSON shape; undefined is stored as null, U+0000 as U+FFFD', async () => {
      const payloads = [{ deep: { list: [1, 2.5, 'two', null, true, { k: 'v' }] } }, 'text ✓ 😀', 42, -1.5, true, null, [], {}];
      await stores().events.putBatch(payloads.map((payload, i) => event(`p${i}`, { payload })));
      await stores().events.putBatch([event('undef', { payload: undefined }), event('nul', { payload: { s: 'a\u0000b', ['k\u0000']: 1 } })]);
      expect((await stores().events.listEvents({ runId: 'run-1' })).map((r) => r.payload)).toEqual([
        ...payloads,
        null,
        { s: 'a\uFFFDb', ['k\uFFFD']: 1 },
      ]);
    });

    it("putBatch's rows hold the payload as stored, not the caller's object, and behave as plain rows", async () => {
      const input = { s: 'a\u0000b', nested: { n: 1 } };
      const rows = await stores().events.putBatch([event('kept', { payload: input }), event('undef', { payload: undefined })]);
      input.nested.n = 2;
      expect(rows.map((r) => r.payload)).toEqual([{ s: 'a\uFFFDb', nested: { n: 1 } }, null]);
      expect(rows[0]!.payload).not.toBe(input);
      // Read twice, the same value: a caller may keep what it read.
      expect(rows[0]!.payload).toBe(rows[0]!.payload);
      expect(rows).toEqual(await stores().events.listEvents({ runId: 'run-1' }));
      expect(JSON.parse(JSON.stringify(rows))).toEqual(rows);
      expect(rows.map((r) => ({ ...r }))).toEqual(rows);
      expect(Object.keys(rows[0]!)).toContain('payload');
    });

    it('skips an event whose dedupeKey exists: no row returned, nothing duplicated, first write kept', async () => {
      const [original] = await stores().events.putBatch([event('e1', { payload: { v: 'first' } })]);
      const retried = await stores().events.putBatch([event('e1', { payload: { v: 'second' } }), event('e2')]);
      expect(retried.map((r) => r.payload)).toEqual([{ key: 'e2' }]);
      const all = await stores().events.listEvents({ runId: 'run-1' });
      expect(all.map((r) => r.payload)).toEqual([{ v: 'first' }, { key: 'e2' }]);
      expect(all[0]).toEqual(original);
    });

    it('dedupe keys are global: the same key under another run is still a duplicate', async () => {
      await stores().events.putBatch([event('k')]);
      expect(await stores().events.putBatch([event('k', { runId: 'run-2' })])).toEqual([]);
      expect(await stores().events.listEvents({ runId: 'run-2' })).toEqual([]);
    });

    it('skips a duplicate inside one batch', async () => {
      const rows = await stores().events.putBatch([event('same', { payload: 1 }), event('same', { payload: 2 })]);
      expect(rows.map((r) => r.payload)).toEqual([1]);
      expect(await stores().events.listEvents({ runId: 'run-1' })).toHaveLength(1);
    });

    it('listEvents is scoped to the run, in seq order', async () => {
      await stores().events.putBatch([event('a1'), event('b1', { runId: 'run-2' }), event('a2'), event('b2', { runId: 'run-2' })]);
      expect(await keys({})).toEqual(['a1', 'a2']);
      expect((await stores().events.listEvents({ runId: 'run-2' })).map((r) => r.payload)).toEqual([{ key: 'b1' }, { key: 'b2' }]);
      expect(await stores().events.listEvents({ runId: 'run-3' })).toEqual([]);
    });

    it("drops a task's rows written after its end row; other tasks, threads and untasked rows go on", async () => {
      await stores().events.putBatch([event('s1'), event('end', { event: 'subagent.end' })]);
      // A late flush from the cancelled execution, in one batch with rows that must still land.
      const late = await stores().events.putBatch([
        event('s2'),
        event('other-task', { taskId: 'call_b' }),
        event('other-thread', { threadId: 'thread-2' }),
        event('note', { taskId: null, category: 'other', event: 'run.note' }),
      ]);
      expect(late.map((r) => (r.payload as { key: string }).key)).toEqual(['other-task', 'other-thread', 'note']);
      expect(await keys({ threadId: 'thread-1', taskId: 'call_a' })).toEqual(['s1', 'end']);
      // The end row itself stays idempotent: a retried end adds nothing.
      expect(await stores().events.putBatch([event('end', { event: 'subagent.end' })])).toEqual([]);
    });

    it("drops a task's rows that follow its end row in the same batch, as row-by-row writes would", async () => {
      const written = await stores().events.putBatch([
        event('s1'),
        event('end', { event: 'subagent.end' }),
        event('s2'),
        event('other-task', { taskId: 'call_b' }),
        event('end-again', { event: 'subagent.end' }),
      ]);
      expect(written.map((r) => (r.payload as { key: string }).key)).toEqual(['s1', 'end', 'other-task', 'end-again']);
      expect(await keys({ threadId: 'thread-1', taskId: 'call_a' })).toEqual(['s1', 'end', 'end-again']);
      expect(written.map((r) => r.seq)).toEqual([...written.map((r) => r.seq)].sort((a, b) => a - b));
    });

    it('threadId keeps a run id reused in another thread apart', async () => {
      await stores().events.putBatch([event('t1'), event('u1', { threadId: 'thread-2' }), event('t2')]);
      expect(await keys({ threadId: 'thread-1' })).toEqual(['t1', 't2']);
      expect(await keys({ threadId: 'thread-2' })).toEqual(['u1']);
      expect(await keys({ threadId: 'thread-3' })).toEqual([]);
      expect(await keys({})).toEqual(['t1', 'u1', 't2']);
    });

    it('filters by taskId, eventTypes and afterSeq together', async () => {
      const rows = await stores().events.putBatch([
        event('1', { event: 'subagent.start' }),
        event('2', { event: 'subagent.step', taskId: 'call_b' }),
        event('3', { event: 'subagent.step' }),
        event('4', { event: 'subagent.step', taskId: null }),
        event('5', { event: 'subagent.step' }),
        event('6', { event: 'subagent.end' }),
      ]);
      expect(await keys({ taskId: 'call_a' })).toEqual(['1', '3', '5', '6']);
      expect(await keys({ taskId: 'call_b' })).toEqual(['2']);
      expect(await keys({ eventTypes: ['subagent.step'] })).toEqual(['2', '3', '4', '5']);
      expect(await keys({ eventTypes: ['subagent.start', 'subagent.end'] })).toEqual(['1', '6']);
      expect(await keys({ eventTypes: [] })).toEqual([]);
      expect(await keys({ afterSeq: rows[2]!.seq })).toEqual(['4', '5', '6']);
      expect(await keys({ taskId: 'call_a', eventTypes: ['subagent.step'], afterSeq: rows[2]!.seq })).toEqual(['5']);
      expect(await keys({ taskId: 'call_a', limit: 2 })).toEqual(['1', '3']);
    });

    it('applies the filters before the limit: paging one task of 600 interleaved rows reaches the tail', async () => {
      const batch: NewRunEvent[] = [];
      for (let i = 0; i < 600; i += 1) {
        batch.push(event(`a-${i}`, { taskId: 'call_a', payload: i }));
        batch.push(event(`b-${i}`, { taskId: 'call_b', payload: -i }));
      }
      await stores().events.putBatch(batch);

      const seen: unknown[] = [];
      let afterSeq: number | undefined;
      let pages = 0;
      for (;;) {
        const page = await stores().events.listEvents({ runId: 'run-1', taskId: 'call_a', afterSeq, limit: 250 });
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
      await stores().events.putBatch(Array.from({ length: 600 }, (_, i) => event(`e-${i}`, { payload: i })));
      const page = await stores().events.listEvents({ runId: 'run-1' });
      expect(page).toHaveLength(500);
      expect(page[499]!.payload).toBe(499);
      const rest = await stores().events.listEvents({ runId: 'run-1', afterSeq: page[499]!.seq });
      expect(rest.map((r) => r.payload)).toEqual(Array.from({ length: 100 }, (_, i) => 500 + i));
    });

    it('a reader tailing with afterSeq during concurrent writes of one run never skips a row', async () => {
      const writers = Array.from({ length: 12 }, (_, w) =>
        stores().events.putBatch(Array.from({ length: 10 }, (_, i) => event(`w${w}-${i}`, { payload: w * 10 + i }))),
      );
      const seen: number[] = [];
      let afterSeq = 0;
      let done = false;
      const all = Promise.all(writers).finally(() => {
        done = true;
      });
      for (;;) {
        const finished = done;
        const page = await stores().events.listEvents({ runId: 'run-1', afterSeq });
        seen.push(...page.map((r) => r.payload as number));
        afterSeq = page.at(-1)?.seq ?? afterSeq;
        if (finished && page.length === 0) break;
        // A tailer lets the event loop turn between reads (a store may commit writes on the next turn).
        await new Promise((resolve) => setImmediate(resolve));
      }
      await all;
      expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 120 }, (_, i) => i));
    });
  });
}
