import { itemsToStart, progressStride, shouldContinueAsNew, slotsToGrant } from '../../../src/workflows/batch-window';

test('itemsToStart fills the window up to max live items, and nothing while stopping', () => {
  expect(itemsToStart({ live: 0, maxLive: 100, stopping: false })).toBe(100);
  expect(itemsToStart({ live: 97, maxLive: 100, stopping: false })).toBe(3);
  expect(itemsToStart({ live: 100, maxLive: 100, stopping: false })).toBe(0);
  expect(itemsToStart({ live: 3, maxLive: 100, stopping: true })).toBe(0);
});

test('itemsToStart with slots passed at start: no more items than free slots, within the window', () => {
  expect(itemsToStart({ live: 0, maxLive: 100, stopping: false, freeSlots: 8 })).toBe(8);
  expect(itemsToStart({ live: 8, maxLive: 100, stopping: false, freeSlots: 0 })).toBe(0);
  // Items waiting out a backoff are live without a slot: the window still bounds them.
  expect(itemsToStart({ live: 99, maxLive: 100, stopping: false, freeSlots: 5 })).toBe(1);
  expect(itemsToStart({ live: 0, maxLive: 100, stopping: true, freeSlots: 8 })).toBe(0);
});

test('slotsToGrant grants in request order up to max running', () => {
  expect(slotsToGrant(['a', 'b', 'c'], 1, 3)).toEqual(['a', 'b']);
  expect(slotsToGrant(['a', 'b'], 3, 3)).toEqual([]);
  expect(slotsToGrant([], 0, 3)).toEqual([]);
  expect(slotsToGrant(['a'], 5, 3)).toEqual([]);
});

test('shouldContinueAsNew follows Temporal’s suggestion or the batch’s own event limit', () => {
  expect(shouldContinueAsNew({ length: 10, suggested: true }, 10_000)).toBe(true);
  expect(shouldContinueAsNew({ length: 10_000, suggested: false }, 10_000)).toBe(true);
  expect(shouldContinueAsNew({ length: 9_999, suggested: false }, 10_000)).toBe(false);
});

test('progressStride reports about 20 times per batch, at least every item', () => {
  expect(progressStride(5000)).toBe(250);
  expect(progressStride(7)).toBe(1);
});
