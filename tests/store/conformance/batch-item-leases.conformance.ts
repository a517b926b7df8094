import type { CreateBatchInput } from '../../../src/contracts/batches';
import type { BatchStore, Stores } from '../../../src/store';
import { MAX_ITEMS, OWNER, batchInput, completion, expectBatchError, itemsFor } from './batch-fixtures';
import type { StoresLocation } from './persistence.conformance';

/** The clock of every lease request (epoch ms), and the length of every lease. */
const T = 1_700_000_000_000;
const LEASE_MS = 30_000;

const keysOf = (n: number): string[] => Array.from({ length: n }, (_, i) => `k${String(i).padStart(2, '0')}`);
const leaseLimits = (maxRunningItems: number) => ({ maxLiveItems: 20, maxRunningItems, maxAttempts: 3 });

/** Creates batch `b1` with `keys` and `max_running_items`, every item marked running in attempt 1. */
async function runningBatch(store: BatchStore, keys: readonly string[], maxRunningItems: number, overrides: Partial<CreateBatchInput> = {}): Promise<void> {
  await store.createBatch(batchInput({ items: itemsFor(keys), limits: leaseLimits(maxRunningItems), ...overrides }), { maxItems: MAX_ITEMS });
  for (const key of keys) await store.markItemRunning(overrides.batchId ?? 'b1', key, 1);
}

/** Running leases: at most `max_running_items` unexpired leases per batch; taking one marks the item running in its attempt. */
export function batchItemLeaseSpec(batches: () => BatchStore): void {
  const acquire = (key: string, nowMs = T, attempt = 1) => batches().acquireItemLease('b1', key, attempt, LEASE_MS, nowMs);
  const leased = (nowMs = T) => ({ kind: 'leased', expiresAtMs: nowMs + LEASE_MS });
  const full = (n: number) => ({ kind: 'full', leased: n, maxRunning: n });

  describe('running leases', () => {
    it('grants at most max_running_items leases; another batch holds leases of its own', async () => {
      await runningBatch(batches(), ['x'], 1, { batchId: 'b2' });
      expect(await batches().acquireItemLease('b2', 'x', 1, LEASE_MS, T)).toEqual(leased());
      await runningBatch(batches(), ['a', 'b', 'c', 'd'], 2);
      expect(await acquire('a')).toEqual(leased());
      expect(await acquire('b')).toEqual(leased());
      expect(await acquire('c')).toEqual(full(2));
      expect(await acquire('d')).toEqual(full(2));
    });

    it('a concurrent burst grants exactly max_running_items leases', async () => {
      const keys = keysOf(10);
      await runningBatch(batches(), keys, 3);
      const outcomes = await Promise.all(keys.map((key) => acquire(key)));
      expect(outcomes.filter((o) => o.kind === 'leased')).toHaveLength(3);
      expect(outcomes.filter((o) => o.kind !== 'leased')).toEqual(Array.from({ length: 7 }, () => full(3)));
    });

    it('an expired lease no longer counts (a crashed worker leaves one behind)', async () => {
      await runningBatch(batches(), ['a', 'b'], 1);
      expect(await acquire('a')).toEqual(leased());
      expect(await acquire('b', T + LEASE_MS - 1)).toEqual(full(1));
      expect(await acquire('b', T + LEASE_MS)).toEqual(leased(T + LEASE_MS));
      expect(await acquire('a', T + LEASE_MS + 1)).toEqual(full(1));
    });

    it('the holder renews its lease even when the batch is full', async () => {
      await runningBatch(batches(), ['a', 'b', 'c'], 2);
      await acquire('a');
      await acquire('b');
      expect(await acquire('a', T + 1000)).toEqual(leased(T + 1000));
      expect(await acquire('c', T + LEASE_MS - 1)).toEqual(full(2));
      // b's first lease ran out, a's renewed one did not.
      expect(await acquire('c', T + LEASE_MS)).toEqual(leased(T + LEASE_MS));
      expect(await acquire('b', T + LEASE_MS)).toEqual(full(2));
    });

    it('releasing a lease frees its slot; only the holding attempt releases, and repeats are no-ops', async () => {
      await runningBatch(batches(), ['a', 'b', 'c'], 1);
      await acquire('a');
      expect(await acquire('b')).toEqual(full(1));
      await batches().releaseItemLease('b1', 'a', 2);
      expect(await acquire('b')).toEqual(full(1));
      await batches().releaseItemLease('b1', 'a', 1);
      await batches().releaseItemLease('b1', 'a', 1);
      expect(await acquire('b')).toEqual(leased());
      expect(await acquire('c')).toEqual(full(1));
      await batches().releaseItemLease('b1', 'zz', 1);
      await batches().releaseItemLease('ghost', 'a', 1);
    });

    it('fences a terminal item and a stale attempt, and writes nothing for them', async () => {
      await batches().createBatch(batchInput({ items: itemsFor(['a', 'c', 'd']), limits: leaseLimits(1) }), { maxItems: MAX_ITEMS });
      await batches().completeItem('b1', 'a', completion());
      await batches().markItemRunning('b1', 'c', 2);
      expect(await acquire('a')).toEqual({ kind: 'fenced', status: 'completed' });
      expect(await acquire('c', T, 1)).toEqual({ kind: 'fenced', status: 'running' });
      expect(await batches().getItem('b1', OWNER, 'c')).toMatchObject({ status: 'running', attempts: 2 });
      await batches().markItemRunning('b1', 'd', 1);
      expect(await acquire('d')).toEqual(leased());
      expect(await acquire('c', T, 2)).toEqual(full(1));
    });

    it('taking a lease marks a pending item running in that attempt; a full batch leaves it pending', async () => {
      await batches().createBatch(batchInput({ items: itemsFor(['a', 'b']), limits: leaseLimits(1) }), { maxItems: MAX_ITEMS });
      expect(await acquire('a', T, 1)).toEqual(leased());
      expect(await batches().getItem('b1', OWNER, 'a')).toMatchObject({ status: 'running', attempts: 1, started_at: new Date(T).toISOString() });
      expect(await acquire('b', T, 1)).toEqual(full(1));
      expect(await batches().getItem('b1', OWNER, 'b')).toMatchObject({ status: 'pending', attempts: 0, started_at: null });
      // A later attempt takes the item over; its first start time stays.
      expect(await acquire('a', T + 5000, 2)).toEqual(leased(T + 5000));
      expect(await batches().getItem('b1', OWNER, 'a')).toMatchObject({ status: 'running', attempts: 2, started_at: new Date(T).toISOString() });
      expect(await acquire('a', T + 6000, 1)).toEqual({ kind: 'fenced', status: 'running' });
    });

    it('a new attempt starts without the lease of the one before', async () => {
      await runningBatch(batches(), ['a', 'b'], 1);
      await acquire('a');
      expect(await acquire('b')).toEqual(full(1));
      await batches().markItemRunning('b1', 'a', 2);
      expect(await acquire('a', T, 1)).toEqual({ kind: 'fenced', status: 'running' });
      expect(await acquire('b')).toEqual(leased());
      expect(await acquire('a', T, 2)).toEqual(full(1));
    });

    it('completeItem and cancelBatch give the lease back', async () => {
      await runningBatch(batches(), ['a', 'b', 'c'], 1);
      await acquire('a');
      await batches().completeItem('b1', 'a', completion());
      expect(await acquire('b')).toEqual(leased());
      expect(await acquire('a')).toEqual({ kind: 'fenced', status: 'completed' });
      await batches().cancelBatch('b1', OWNER);
      expect(await acquire('b')).toEqual({ kind: 'fenced', status: 'cancelled' });
      expect(await acquire('c')).toEqual({ kind: 'fenced', status: 'cancelled' });
    });

    it('nowMs defaults to the clock', async () => {
      await runningBatch(batches(), ['a'], 1);
      const before = Date.now();
      const outcome = await batches().acquireItemLease('b1', 'a', 1, LEASE_MS);
      expect(outcome.kind).toBe('leased');
      const expiresAtMs = (outcome as { expiresAtMs: number }).expiresAtMs;
      expect(expiresAtMs).toBeGreaterThanOrEqual(before + LEASE_MS);
      expect(expiresAtMs).toBeLessThanOrEqual(Date.now() + LEASE_MS);
    });

    it.each<[string, number, number, number]>([
      ['attempt: must be >= 1', 0, LEASE_MS, T],
      ['attempt: must be an integer', 1.5, LEASE_MS, T],
      ['leaseMs: must be >= 1', 1, 0, T],
      ['leaseMs: must be an integer', 1, 0.5, T],
      ['nowMs: must be >= 0', 1, LEASE_MS, -1],
      ['nowMs: must be an integer', 1, LEASE_MS, T + 0.5],
      ['nowMs: must be of type number', 1, LEASE_MS, Number.NaN],
      ['nowMs: must be of type number', 1, LEASE_MS, Number.POSITIVE_INFINITY],
    ])('refuses a bad lease request naming the field (%s) and writes nothing', async (text, attempt, leaseMs, nowMs) => {
      await runningBatch(batches(), ['a', 'b'], 1);
      const err = await expectBatchError(batches().acquireItemLease('b1', 'a', attempt, leaseMs, nowMs), 'invalid', text);
      expect(err.issues).toEqual([text]);
      // Validated before anything is read: a missing batch is still `invalid`.
      await expectBatchError(batches().acquireItemLease('ghost', 'a', attempt, leaseMs, nowMs), 'invalid', text);
      expect(await acquire('b')).toEqual(leased());
    });

    it('releaseItemLease refuses a bad attempt naming the field and keeps the lease', async () => {
      await runningBatch(batches(), ['a', 'b'], 1);
      await acquire('a');
      await expectBatchError(batches().releaseItemLease('b1', 'a', 0), 'invalid', 'attempt: must be >= 1');
      await expectBatchError(batches().releaseItemLease('b1', 'a', 1.5), 'invalid', 'attempt: must be an integer');
      expect(await acquire('b')).toEqual(full(1));
    });

    it('a missing batch or item is not_found', async () => {
      await runningBatch(batches(), ['a'], 1);
      await expectBatchError(acquire('zz'), 'not_found', 'item "zz" of batch "b1" not found');
      await expectBatchError(batches().acquireItemLease('ghost', 'a', 1, LEASE_MS, T), 'not_found', 'batch "ghost" not found');
    });
  });
}

/**
 * Lease requests through separate connections to one storage location (SQLite: two stores on one
 * file; PostgreSQL: two pools), as workers in several processes make them: still at most
 * `max_running_items` leases.
 */
export function batchLeaseSharingSpec(location: StoresLocation): void {
  describe('running leases across connections', () => {
    it('concurrent lease requests from two connections grant exactly max_running_items', async () => {
      const open = await location();
      const connections: Stores[] = await Promise.all([open(), open()]);
      try {
        const keys = keysOf(10);
        await runningBatch(connections[0]!.batches, keys, 3);
        for (let round = 0; round < 5; round += 1) {
          const nowMs = T + round * LEASE_MS;
          const outcomes = await Promise.all(keys.map((key, i) => connections[i % 2]!.batches.acquireItemLease('b1', key, 1, LEASE_MS, nowMs)));
          expect(outcomes.filter((o) => o.kind === 'leased')).toHaveLength(3);
        }
      } finally {
        await Promise.all(connections.map((s) => s.close()));
      }
    });
  });
}

/** Fresh stores with a reader of their raw `batch_items.lease_expires_ms` column, by key. */
export type LeaseColumnInit = () => Promise<{
  readonly stores: Stores;
  leaseColumn(batchId: string): Promise<Record<string, number | null>>;
  close(): Promise<void>;
}>;

/**
 * What the API cannot show: a terminal item (never counted) keeps no lease behind, so the rows of
 * the partial lease index are the running items'.
 */
export function batchLeaseColumnSpec(init: LeaseColumnInit): void {
  describe('running lease column', () => {
    it('completeItem, cancelBatch and finishBatch clear the lease of the items they end', async () => {
      const { stores, leaseColumn, close } = await init();
      try {
        const store = stores.batches;
        const keys = ['a', 'b', 'c', 'd'];
        await runningBatch(store, keys, 4);
        await runningBatch(store, keys, 4, { batchId: 'b2' });
        for (const key of keys) {
          await store.acquireItemLease('b1', key, 1, LEASE_MS, T);
          await store.acquireItemLease('b2', key, 1, LEASE_MS, T);
        }
        const held = T + LEASE_MS;
        expect(await leaseColumn('b1')).toEqual({ a: held, b: held, c: held, d: held });
        await store.completeItem('b1', 'a', completion());
        await store.releaseItemLease('b1', 'b', 1);
        await store.markItemRunning('b1', 'c', 2);
        expect(await leaseColumn('b1')).toEqual({ a: null, b: null, c: null, d: held });
        await store.cancelBatch('b1', OWNER);
        expect(await leaseColumn('b1')).toEqual({ a: null, b: null, c: null, d: null });
        await store.finishBatch('b2', 'failed');
        expect(await leaseColumn('b2')).toEqual({ a: null, b: null, c: null, d: null });
      } finally {
        await close();
      }
    });

    it('a lease request racing the terminal write leaves no lease on the terminal row', async () => {
      const { stores, leaseColumn, close } = await init();
      try {
        const keys = keysOf(20);
        await runningBatch(stores.batches, keys, 20);
        await Promise.all(keys.flatMap((key) => [stores.batches.acquireItemLease('b1', key, 1, LEASE_MS, T), stores.batches.completeItem('b1', key, completion())]));
        expect(Object.values(await leaseColumn('b1'))).toEqual(keys.map(() => null));
      } finally {
        await close();
      }
    });
  });
}
