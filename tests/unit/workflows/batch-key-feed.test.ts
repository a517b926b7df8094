import { BatchKeyFeed } from '../../../src/workflows/batch-key-feed';

/** A loader over `keys` in pages of `size`, recording the cursors it was asked with. */
function pages(keys: string[], size: number) {
  const asked: Array<string | null> = [];
  const load = async (afterKey: string | null) => {
    asked.push(afterKey);
    const start = afterKey === null ? 0 : keys.indexOf(afterKey) + 1;
    return keys.slice(start, start + size);
  };
  return { load, asked };
}

test('takes every key once in order, reading the next page after the last key taken, then is exhausted', async () => {
  const { load, asked } = pages(['a', 'b', 'c', 'd', 'e'], 2);
  const feed = new BatchKeyFeed(load, null);
  const taken: string[] = [];
  while (!feed.exhausted) {
    if (!feed.buffered) {
      await feed.refill();
      continue;
    }
    taken.push(feed.take());
  }
  expect(taken).toEqual(['a', 'b', 'c', 'd', 'e']);
  expect(asked).toEqual([null, 'b', 'd', 'e']);
  expect(feed.afterKey).toBe('e');
});

test('a continued run starts after its cursor; a page not taken yet stays buffered', async () => {
  const { load } = pages(['a', 'b', 'c', 'd'], 3);
  const feed = new BatchKeyFeed(load, 'a');
  await feed.refill();
  expect(feed.take()).toBe('b');
  expect(feed.afterKey).toBe('b');
  expect(feed.buffered).toBe(true);
  expect(feed.exhausted).toBe(false);
});

test('taking without a buffered key is a programming error', () => {
  expect(() => new BatchKeyFeed(async () => [], null).take()).toThrow('no buffered batch key');
});
