/**
 * A Map that keeps at most `maxSize` entries, evicting the oldest insert. `set` on a present key
 * keeps its place; `touch` moves it to the end (LRU use).
 */
export class BoundedMap<K, V> {
  private readonly map = new Map<K, V>();

  /** @param maxSize at least 1 */
  constructor(readonly maxSize: number) {
    if (!Number.isInteger(maxSize) || maxSize < 1) throw new RangeError(`maxSize must be a positive integer, got ${maxSize}`);
  }

  get size(): number {
    return this.map.size;
  }

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  /** Inserts or updates in place; returns the keys evicted to stay within `maxSize`. */
  set(key: K, value: V): K[] {
    this.map.set(key, value);
    const evicted: K[] = [];
    for (const oldest of this.map.keys()) {
      if (this.map.size <= this.maxSize) break;
      this.map.delete(oldest);
      evicted.push(oldest);
    }
    return evicted;
  }

  /** Like `set`, but the key becomes the most recent. */
  touch(key: K, value: V): K[] {
    this.map.delete(key);
    return this.set(key, value);
  }

  /** Removes and returns the value. */
  pop(key: K): V | undefined {
    const value = this.map.get(key);
    this.map.delete(key);
    return value;
  }

  delete(key: K): boolean {
    return this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
  }

  entries(): IterableIterator<[K, V]> {
    return this.map.entries();
  }
}
