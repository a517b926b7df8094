import type { CreateBatchInput } from '../../../src/contracts/batches';
import type { BatchStore } from '../../../src/store';
import { MAX_ITEMS, OWNER, batchInput, collect, completion, expectBatchError, itemsFor, sha256 } from './batch-fixtures';
import { ISO_UTC } from './fixtures';

const T0 = '2025-01-01T00:00:00.000Z';
const at = (s: number): string => new Date(Date.parse(T0) + s * 1000).toISOString();

/** Item writes: running marks, attempt history, bounded results, the fence, cancel and finish. */
export function batchItemLifecycleSpec(batches: () => BatchStore): void {
  const create = (overrides: Partial<CreateBatchInput> = {}) => batches().createBatch(batchInput(overrides), { maxItems: MAX_ITEMS });
  const item = async (key: string) => (await batches().getItem('b1', OWNER, key))!;

  describe('items', () => {
    it('markItemRunning marks a nonterminal item running; started_at is kept from the first start', async () => {
      await create();
      expect(await batches().markItemRunning('b1', 'a', 1, at(1))).toEqual({ written: true, status: 'running' });
      expect(await batches().markItemRunning('b1', 'a', 1, at(1))).toEqual({ written: true, status: 'running' });
      expect(await batches().markItemRunning('b1', 'a', 2, at(9))).toEqual({ written: true, status: 'running' });
      expect(await item('a')).toMatchObject({ status: 'running', attempts: 2, started_at: at(1) });
      expect((await batches().markItemRunning('b1', 'b', 1)).written).toBe(true);
      expect((await item('b')).started_at).toMatch(ISO_UTC);
      await batches().completeItem('b1', 'c', completion());
      expect(await batches().markItemRunning('b1', 'c', 2)).toEqual({ written: false, status: 'completed' });
      expect((await item('c')).status).toBe('completed');
      await expectBatchError(batches().markItemRunning('b1', 'zz', 1), 'not_found', 'item "zz" of batch "b1" not found');
      await expectBatchError(batches().markItemRunning('b1', 'a', 0), 'invalid', 'attempt: must be >= 1');
    });

    it('countItemsThrough and openItemsThrough see only the items up to a key, by status', async () => {
      await create({ items: itemsFor(['a', 'b', 'c', 'd', 'e']) });
      await batches().createBatch(batchInput({ batchId: 'b2', items: itemsFor(['a', 'b']) }), { maxItems: MAX_ITEMS });
      await batches().markItemRunning('b1', 'b', 1);
      await batches().completeItem('b1', 'c', completion());
      await batches().markItemRunning('b1', 'e', 1);
      const zero = { pending: 0, running: 0, completed: 0, failed: 0, cancelled: 0, timed_out: 0 };
      expect(await batches().countItemsThrough('b1', 'c')).toEqual({ ...zero, pending: 1, running: 1, completed: 1 });
      expect(await batches().countItemsThrough('b1', 'cz')).toEqual({ ...zero, pending: 1, running: 1, completed: 1 });
      expect(await batches().countItemsThrough('b1', 'e')).toEqual({ ...zero, pending: 2, running: 2, completed: 1 });
      expect(await batches().countItemsThrough('b1', '0')).toEqual(zero);
      expect(await batches().countItemsThrough('ghost', 'z')).toEqual(zero);
      expect(await batches().openItemsThrough('b1', 'd', 10)).toEqual(['a', 'b', 'd']);
      expect(await batches().openItemsThrough('b1', 'd', 2)).toEqual(['a', 'b']);
      expect(await batches().openItemsThrough('b1', 'd', 10, 'b')).toEqual(['d']);
      expect(await batches().openItemsThrough('b1', 'z', 10, 'd')).toEqual(['e']);
      await expectBatchError(batches().countItemsThrough('b1', ''), 'invalid', 'throughKey: must be at least 1 characters');
      await expectBatchError(batches().openItemsThrough('b1', '', 10), 'invalid', 'throughKey: must be at least 1 characters');
      await expectBatchError(batches().openItemsThrough('b1', 'z', 0), 'invalid', 'limit: must be >= 1');
    });

    it('recordAttempt appends to the history in order, once per identical entry, until the item is terminal', async () => {
      await create();
      await batches().markItemRunning('b1', 'a', 1, at(0));
      const rejected = { attempt: 1, outcome: 'capacity_rejected', error: 'capacity is full', at: at(1) } as const;
      expect(await batches().recordAttempt('b1', 'a', rejected)).toEqual({ written: true, status: 'running' });
      expect(await batches().recordAttempt('b1', 'a', rejected)).toEqual({ written: true, status: 'running' });
      await batches().recordAttempt('b1', 'a', { attempt: 1, outcome: 'failed', error: 'boom\u0000', at: '2025-01-01T01:00:02+01:00' });
      await batches().recordAttempt('b1', 'a', { attempt: 2, outcome: 'lost', at: at(3) });
      expect((await item('a')).attempt_history).toEqual([
        rejected,
        { attempt: 1, outcome: 'failed', error: 'boom\ufffd', at: at(2) },
        { attempt: 2, outcome: 'lost', error: null, at: at(3) },
      ]);
      await batches().completeItem('b1', 'a', completion('ok', { attempts: 3 }));
      expect(await batches().recordAttempt('b1', 'a', { attempt: 3, outcome: 'failed', error: 'late', at: at(9) })).toEqual({ written: false, status: 'completed' });
      expect((await item('a')).attempt_history).toHaveLength(3);
      await expectBatchError(batches().recordAttempt('b1', 'zz', rejected), 'not_found', 'item "zz"');
      await expectBatchError(batches().recordAttempt('b1', 'b', { ...rejected, outcome: 'exploded' as never }), 'invalid', 'outcome');
    });

    it('the attempt history keeps the latest 100 entries', async () => {
      await create();
      for (let i = 0; i < 105; i += 1) await batches().recordAttempt('b1', 'a', { attempt: 1, outcome: 'capacity_timeout', error: null, at: at(i) });
      const history = (await item('a')).attempt_history;
      expect(history).toHaveLength(100);
      expect(history[0]?.at).toBe(at(5));
      expect(history[99]?.at).toBe(at(104));
    });

    it('completeItem stores status, bounded result, sha256, stop reason, error, attempts, usage and timings', async () => {
      await create({ limits: { maxLiveItems: 10, maxRunningItems: 3, maxAttempts: 3, maxResultChars: 12, resultPreviewMaxChars: 4 } });
      const long = `héllo\u0000 wörld, and more`;
      const usage = { input_tokens: 10, output_tokens: 5, total_tokens: 15 };
      const written = await batches().completeItem('b1', 'a', completion(long, { stopReason: 'turn_capped', attempts: 2, usage }));
      expect(written).toEqual({ written: true, status: 'completed' });
      expect(await item('a')).toMatchObject({
        status: 'completed', result: 'héllo\u0000 wörld', result_truncated: true, result_chars: long.length, result_sha256: sha256(long),
        stop_reason: 'turn_capped', error: null, attempts: 2, usage, started_at: T0, completed_at: at(5),
      });
      await batches().completeItem('b1', 'b', completion('exactly12chr'));
      expect(await item('b')).toMatchObject({ result: 'exactly12chr', result_truncated: false, result_chars: 12 });
      // A cut inside a surrogate pair would store a lone surrogate: the bound backs off one unit.
      await batches().completeItem('b1', 'c', completion(`${'x'.repeat(11)}😀tail`, { status: 'failed', error: `bad ${'e'.repeat(5000)}` }));
      const failed = await item('c');
      expect(failed).toMatchObject({ status: 'failed', result: 'x'.repeat(11), result_truncated: true });
      expect(failed.error?.startsWith('bad e')).toBe(true);
      expect(failed.error!.length).toBeLessThanOrEqual(2000);
      await expectBatchError(batches().completeItem('ghost', 'a', completion()), 'not_found', 'batch "ghost" not found');
      await expectBatchError(batches().completeItem('b1', 'zz', completion()), 'not_found', 'item "zz" of batch "b1" not found');
    });

    it('completeItem refuses a non-terminal status or a bad sha256 and writes nothing', async () => {
      await create();
      await expectBatchError(batches().completeItem('b1', 'a', completion('x', { status: 'running' as never })), 'invalid', 'status');
      await expectBatchError(batches().completeItem('b1', 'a', completion('x', { resultSha256: 'abc' })), 'invalid', 'resultSha256: must be 64 lowercase hex digits');
      expect((await item('a')).status).toBe('pending');
    });

    it('the fence: a terminal item is never overwritten; repeating the same completion reports written', async () => {
      await create();
      const first = completion('first');
      expect(await batches().completeItem('b1', 'a', first)).toEqual({ written: true, status: 'completed' });
      const stored = await item('a');
      expect(await batches().completeItem('b1', 'a', first)).toEqual({ written: true, status: 'completed' });
      expect(await batches().completeItem('b1', 'a', completion('second', { completedAt: at(6) }))).toEqual({ written: false, status: 'completed' });
      expect(await batches().completeItem('b1', 'a', completion(null, { status: 'cancelled' }))).toEqual({ written: false, status: 'completed' });
      expect(await item('a')).toEqual(stored);
    });

    it('concurrent completeItem calls for one key: exactly one write wins', async () => {
      await create();
      const results = Array.from({ length: 12 }, (_, i) => `result ${i}`);
      const outcomes = await Promise.all(results.map((r, i) => batches().completeItem('b1', 'a', completion(r, { completedAt: at(i + 1) }))));
      const winners = outcomes.flatMap((o, i) => (o.written ? [i] : []));
      expect(winners).toHaveLength(1);
      expect((await item('a')).result).toBe(results[winners[0]!]);
    });
  });

  describe('cancel and finish', () => {
    it('cancelBatch cancels every nonterminal item and the batch at once; later completions are fenced', async () => {
      await create({ items: itemsFor(['a', 'b', 'c', 'd']) });
      await batches().completeItem('b1', 'a', completion('kept'));
      await batches().markItemRunning('b1', 'b', 1);
      const { cancelledItems, batch } = await batches().cancelBatch('b1', OWNER);
      expect(cancelledItems).toBe(3);
      expect(batch).toMatchObject({ status: 'cancelled', finished_at: expect.stringMatching(ISO_UTC) });
      expect(batch.counts).toEqual({ pending: 0, running: 0, completed: 1, failed: 0, cancelled: 3, timed_out: 0 });
      expect(await batches().completeItem('b1', 'b', completion('late'))).toEqual({ written: false, status: 'cancelled' });
      expect(await batches().markItemRunning('b1', 'c', 1)).toEqual({ written: false, status: 'cancelled' });
      expect((await batches().recordAttempt('b1', 'd', { attempt: 1, outcome: 'failed', at: at(1) })).written).toBe(false);
      expect(await item('b')).toMatchObject({ status: 'cancelled', result: null, completed_at: expect.stringMatching(ISO_UTC) });
      expect((await item('a')).result).toBe('kept');
      expect(await batches().nextPendingItems('b1', 10)).toEqual([]);
      expect(await batches().cancelBatch('b1', OWNER)).toEqual({ cancelledItems: 0, batch });
      expect(await batches().finishBatch('b1', 'completed')).toEqual({ written: false, batch });
      await expectBatchError(batches().cancelBatch('ghost', OWNER), 'not_found', 'batch "ghost" not found');
    });

    it('completions racing a cancel: each item ends either completed by its writer or cancelled, never both', async () => {
      const keys = Array.from({ length: 40 }, (_, i) => `k${String(i).padStart(2, '0')}`);
      await create({ items: itemsFor(keys), limits: { maxLiveItems: 40, maxRunningItems: 3, maxAttempts: 3 } });
      const [cancel, ...outcomes] = await Promise.all([
        batches().cancelBatch('b1', OWNER),
        ...keys.map((key) => batches().completeItem('b1', key, completion(`r ${key}`))),
      ]);
      const items = await collect(batches().exportItems('b1', OWNER));
      items.forEach((it, i) => expect(it.status).toBe(outcomes[i]!.written ? 'completed' : 'cancelled'));
      expect(cancel!.cancelledItems).toBe(outcomes.filter((o) => !o.written).length);
      expect((await batches().getBatch('b1', OWNER))?.status).toBe('cancelled');
    });

    it('finishBatch completed needs every item terminal; repeating it reports written', async () => {
      await create({ items: itemsFor(['a', 'b']) });
      await batches().completeItem('b1', 'a', completion());
      await expectBatchError(batches().finishBatch('b1', 'completed'), 'invalid', 'cannot complete a batch with 1 nonterminal items');
      await batches().completeItem('b1', 'b', completion(null, { status: 'failed', error: 'boom' }));
      const done = await batches().finishBatch('b1', 'completed');
      expect(done).toMatchObject({ written: true, batch: { status: 'completed', finished_at: expect.stringMatching(ISO_UTC) } });
      expect(await batches().finishBatch('b1', 'completed')).toEqual(done);
      expect(await batches().finishBatch('b1', 'failed')).toEqual({ written: false, batch: done.batch });
      expect(await batches().cancelBatch('b1', OWNER)).toEqual({ cancelledItems: 0, batch: done.batch });
      await expectBatchError(batches().finishBatch('ghost', 'failed'), 'not_found', 'batch "ghost" not found');
    });

    it('finishBatch failed cancels the items still nonterminal', async () => {
      await create();
      await batches().completeItem('b1', 'a', completion());
      await batches().markItemRunning('b1', 'b', 1);
      const { written, batch } = await batches().finishBatch('b1', 'failed');
      expect(written).toBe(true);
      expect(batch).toMatchObject({ status: 'failed', counts: { completed: 1, cancelled: 2, pending: 0, running: 0 } });
      expect(await batches().completeItem('b1', 'b', completion())).toEqual({ written: false, status: 'cancelled' });
    });
  });
}
