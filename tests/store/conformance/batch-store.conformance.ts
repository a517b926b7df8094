import { BatchItemRecordSchema, BatchRecordSchema, type CreateBatchInput } from '../../../src/contracts/batches';
import { batchItemLeaseSpec } from './batch-item-leases.conformance';
import { batchItemLifecycleSpec } from './batch-item-lifecycle.conformance';
import { MAX_ITEMS, OWNER, batchInput, byCodePoint, collect, completion, expectBatchError, itemsFor } from './batch-fixtures';
import { ISO_UTC, useStores, type StoresInit } from './fixtures';

const keysOf = (n: number): string[] => Array.from({ length: n }, (_, i) => `item-${String(i).padStart(5, '0')}`);
// Creation order is not key order: the store must sort.
const shuffled = <T>(xs: readonly T[]): T[] => xs.map((x, i) => ({ x, k: (i * 7919) % xs.length })).sort((a, b) => a.k - b.k).map((p) => p.x);

/** BatchStore contract: validated all-or-nothing creation, owner-scoped reads, paging, export, the fence, running leases. */
export function batchStoreSpec(init: StoresInit): void {
  describe('BatchStore', () => {
    const stores = useStores(init);
    const batches = () => stores().batches;
    const create = (overrides: Partial<CreateBatchInput> = {}) => batches().createBatch(batchInput(overrides), { maxItems: MAX_ITEMS });

    it('createBatch stores the batch and every item pending, with defaults, counts and UTC times', async () => {
      const { created, batch } = await create({ runId: 'run-1', items: [...itemsFor(['b', 'a']), { key: 'c', prompt: 'do c', acceptance_criteria: ['file:/x non-empty'] }] });
      expect(created).toBe(true);
      expect(batch).toEqual({
        batch_id: 'b1',
        owner_id: OWNER,
        run_id: 'run-1',
        title: 'Summaries',
        subagent_type: 'general-purpose',
        status: 'running',
        limits: { max_live_items: 10, max_running_items: 3, max_attempts: 3, max_result_chars: 100_000, result_preview_max_chars: 2000 },
        item_count: 3,
        counts: { pending: 3, running: 0, completed: 0, failed: 0, cancelled: 0, timed_out: 0 },
        created_at: expect.stringMatching(ISO_UTC),
        updated_at: batch.created_at,
        finished_at: null,
      });
      expect(BatchRecordSchema.parse(batch)).toEqual(batch);
      expect(await batches().getBatch('b1', OWNER)).toEqual(batch);
      const item = await batches().getItem('b1', OWNER, 'c');
      expect(item).toEqual({
        batch_id: 'b1', key: 'c', position: 2, prompt: 'do c', acceptance_criteria: ['file:/x non-empty'], status: 'pending',
        attempts: 0, attempt_history: [], result: null, result_chars: null, result_truncated: false, result_sha256: null,
        stop_reason: null, error: null, usage: null, started_at: null, completed_at: null, updated_at: expect.stringMatching(ISO_UTC),
      });
      expect(BatchItemRecordSchema.parse(item)).toEqual(item);
      expect((await batches().getItem('b1', OWNER, 'a'))?.acceptance_criteria).toBeNull();
      expect(await batches().getItem('b1', OWNER, 'zz')).toBeNull();
      expect(await batches().getBatch('nope', OWNER)).toBeNull();
    });

    it('createBatch is idempotent for identical content and already_exists for different content', async () => {
      const first = await create();
      const again = await create();
      expect(again).toEqual({ created: false, batch: first.batch });
      await expectBatchError(create({ items: itemsFor(['a', 'b', 'x']) }), 'already_exists', 'batch "b1" already exists');
      await expectBatchError(create({ ownerId: 'user-2' }), 'already_exists', 'batch "b1" already exists');
      await expectBatchError(create({ limits: { maxLiveItems: 10, maxRunningItems: 3, maxAttempts: 5 } }), 'already_exists', 'b1');
      expect(await batches().getBatch('b1', OWNER)).toEqual(first.batch);
      expect(await batches().nextPendingItems('b1', 100)).toEqual(['a', 'b', 'c']);
    });

    it('concurrent identical createBatch calls (a retried activity racing itself) create the batch once', async () => {
      const outcomes = await Promise.all(Array.from({ length: 5 }, () => create({ items: itemsFor(keysOf(1200)) })));
      expect(outcomes.filter((o) => o.created)).toHaveLength(1);
      expect(new Set(outcomes.map((o) => o.batch.created_at)).size).toBe(1);
      expect((await batches().getBatch('b1', OWNER))?.counts.pending).toBe(1200);
    });

    it.each<[string, Partial<CreateBatchInput> | ((i: CreateBatchInput) => unknown)]>([
      ['items.1.prompt: is required', { items: [{ key: 'a', prompt: 'x' }, { key: 'b' } as never] }],
      ['items.0.prompt: must not be empty', { items: [{ key: 'a', prompt: '  ' }] }],
      ['items.2.key: duplicate key "a" (first at items.0)', { items: itemsFor(['a', 'b', 'a']) }],
      ['items.0.key: must not be empty', { items: itemsFor(['']) }],
      ['items.0.key: must have no control characters and no surrounding spaces', { items: itemsFor([' a']) }],
      ['items.0.prompt: must not contain U+0000', { items: [{ key: 'a', prompt: 'x\u0000' }] }],
      ['items: must have at least 1 items', { items: [] }],
      ['items.0.colour: unknown field', { items: [{ key: 'a', prompt: 'x', colour: 'red' } as never] }],
      ['limits.maxRunningItems: must be <= maxLiveItems', { limits: { maxLiveItems: 2, maxRunningItems: 3, maxAttempts: 3 } }],
      ['limits.maxAttempts: must be <= 10', { limits: { maxLiveItems: 2, maxRunningItems: 1, maxAttempts: 11 } }],
      ['subagentType: must be 1-64 lowercase letters', { subagentType: 'Not A Name' }],
      ['title: must not be empty', { title: ' ' }],
      ['ownerId: is required', (i) => ({ ...i, ownerId: undefined })],
    ])('refuses a bad request naming the field (%s) and stores nothing', async (text, change) => {
      const input = typeof change === 'function' ? change(batchInput()) : batchInput(change);
      const err = await expectBatchError(batches().createBatch(input as CreateBatchInput, { maxItems: MAX_ITEMS }), 'invalid', text);
      expect(err.issues.some((issue) => issue.startsWith(text))).toBe(true);
      expect(await batches().getBatch('b1', OWNER)).toBeNull();
      expect(await batches().nextPendingItems('b1', 10)).toEqual([]);
    });

    it('one bad item among thousands, or one item over maxItems, rejects the whole request', async () => {
      const many = itemsFor(keysOf(1500));
      many[1499] = { key: 'last', prompt: '' };
      await expectBatchError(create({ items: many }), 'invalid', 'items.1499.prompt: must not be empty');
      await expectBatchError(batches().createBatch(batchInput({ items: itemsFor(keysOf(11)) }), { maxItems: 10 }), 'invalid', 'items: must have at most 10 items');
      expect(await batches().getBatch('b1', OWNER)).toBeNull();
      expect(await batches().nextPendingItems('b1', 10)).toEqual([]);
      expect((await batches().createBatch(batchInput({ items: itemsFor(keysOf(10)) }), { maxItems: 10 })).batch.item_count).toBe(10);
    });

    it('reads are owner-scoped: another owner sees nothing and cannot cancel', async () => {
      await create();
      await batches().completeItem('b1', 'a', completion());
      expect(await batches().getBatch('b1', 'user-2')).toBeNull();
      expect(await batches().getItem('b1', 'user-2', 'a')).toBeNull();
      expect(await batches().listItems('b1', 'user-2', { limit: 10 })).toEqual([]);
      expect(await collect(batches().exportItems('b1', 'user-2'))).toEqual([]);
      await expectBatchError(batches().cancelBatch('b1', 'user-2'), 'not_found', 'batch "b1" not found');
      expect((await batches().getBatch('b1', OWNER))?.status).toBe('running');
      expect(await batches().listItems('b1', OWNER, { limit: 10 })).toHaveLength(3);
    });

    it('listItems pages by key without gaps or repeats, in code-point order', async () => {
      const odd = ['B', 'a', 'a-c', 'a_b', 'a1', 'é', 'ｚ', '😀', 'Z'];
      const keys = [...keysOf(200), ...odd];
      await create({ items: itemsFor(shuffled(keys)) });
      const seen: string[] = [];
      let afterKey: string | undefined;
      for (;;) {
        const page = await batches().listItems('b1', OWNER, { afterKey, limit: 7 });
        seen.push(...page.map((i) => i.key));
        if (page.length < 7) break;
        afterKey = page[page.length - 1]!.key;
      }
      expect(seen).toEqual([...keys].sort(byCodePoint));
      expect((await batches().nextPendingItems('b1', 1000))).toEqual([...keys].sort(byCodePoint));
    });

    it('listItems filters by status before the limit and shows a bounded result preview, never the result', async () => {
      await create({ items: itemsFor(keysOf(30)), limits: { maxLiveItems: 10, maxRunningItems: 3, maxAttempts: 3, maxResultChars: 100, resultPreviewMaxChars: 10 } });
      for (const key of ['item-00003', 'item-00017', 'item-00029']) await batches().completeItem('b1', key, completion(`${key} ${'r'.repeat(200)}`));
      await batches().completeItem('b1', 'item-00020', completion('short'));
      const done = await batches().listItems('b1', OWNER, { limit: 2, status: 'completed' });
      expect(done.map((i) => i.key)).toEqual(['item-00003', 'item-00017']);
      expect(done[0]).toMatchObject({ result_preview: 'item-00003', result_preview_truncated: true, result_chars: 211, result_truncated: true });
      expect(done[0]).not.toHaveProperty('result');
      const rest = await batches().listItems('b1', OWNER, { limit: 10, status: 'completed', afterKey: 'item-00017' });
      expect(rest.map((i) => [i.key, i.result_preview, i.result_preview_truncated])).toEqual([
        ['item-00020', 'short', false],
        ['item-00029', 'item-00029', true],
      ]);
      const pending = await batches().listItems('b1', OWNER, { limit: 1, status: 'pending' });
      expect(pending[0]).toMatchObject({ key: 'item-00000', result_preview: null, result_preview_truncated: false });
      await expectBatchError(batches().listItems('b1', OWNER, { limit: 0 }), 'invalid', 'limit: must be >= 1');
      await expectBatchError(batches().listItems('b1', OWNER, { limit: 1001 }), 'invalid', 'limit: must be <= 1000');
    });

    it('nextPendingItems returns pending keys in key order, up to the limit', async () => {
      await create({ items: itemsFor(['d', 'b', 'a', 'c']) });
      expect(await batches().nextPendingItems('b1', 2)).toEqual(['a', 'b']);
      await batches().markItemRunning('b1', 'a', 1);
      await batches().completeItem('b1', 'b', completion());
      expect(await batches().nextPendingItems('b1', 10)).toEqual(['c', 'd']);
      expect(await batches().nextPendingItems('ghost', 10)).toEqual([]);
      await expectBatchError(batches().nextPendingItems('b1', 0), 'invalid', 'limit: must be >= 1');
    });

    it('getBatch counts items by status', async () => {
      await create({ items: itemsFor(['a', 'b', 'c', 'd', 'e']) });
      await batches().markItemRunning('b1', 'a', 1);
      await batches().completeItem('b1', 'b', completion());
      await batches().completeItem('b1', 'c', completion(null, { status: 'failed', error: 'boom' }));
      await batches().completeItem('b1', 'd', completion(null, { status: 'timed_out' }));
      expect((await batches().getBatch('b1', OWNER))?.counts).toEqual({ pending: 1, running: 1, completed: 1, failed: 1, cancelled: 0, timed_out: 1 });
    });

    it('exportItems yields ~2,000 full records in key order, reading page by page', async () => {
      const keys = keysOf(2000);
      await create({ items: itemsFor(shuffled(keys)) });
      await batches().completeItem('b1', 'item-00005', completion('five'));
      const iterator = batches().exportItems('b1', OWNER)[Symbol.asyncIterator]();
      const first = await iterator.next();
      expect(first.value).toMatchObject({ key: 'item-00000', prompt: 'do item-00000', status: 'pending' });
      // Written after the export started: a paged export still sees it, a full load would not.
      await batches().completeItem('b1', 'item-01999', completion('last'));
      const rest: { key: string; status: string; result: string | null }[] = [];
      for (let r = await iterator.next(); r.done !== true; r = await iterator.next()) rest.push(r.value);
      expect([first.value.key, ...rest.map((r) => r.key)]).toEqual(keys);
      expect(rest[4]).toMatchObject({ key: 'item-00005', status: 'completed', result: 'five' });
      expect(rest[1998]).toMatchObject({ key: 'item-01999', status: 'completed', result: 'last' });
      expect(await collect(batches().exportItems('ghost', OWNER))).toEqual([]);
    });

    batchItemLifecycleSpec(batches);
    batchItemLeaseSpec(batches);
  });
}
