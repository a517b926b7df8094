import type { Caller } from './auth';

/**
 * Counts the open SSE streams of each caller, so one caller cannot hold the poller (store reads and
 * Temporal describes) of an unbounded number of streams. Callers are counted by user: every token
 * of a user shares the user's slots, and the unscoped operator (no tokens) is one caller.
 */
export class StreamSlots {
  private readonly open = new Map<string, number>();

  /** @param limit - streams one caller may hold at once (`gateway.max_streams_per_caller`) */
  constructor(readonly limit: number) {}

  /**
   * Takes a slot for `caller`.
   * @returns the function that gives it back (idempotent, so every way a stream can end may call
   *   it), or `null` when the caller already holds `limit` streams.
   */
  acquire(caller: Caller): (() => void) | null {
    const key = caller.userId;
    const held = this.open.get(key) ?? 0;
    if (held >= this.limit) return null;
    this.open.set(key, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(key) ?? 1) - 1;
      // Drop empty entries so the map does not grow with every user that ever streamed.
      if (left === 0) this.open.delete(key);
      else this.open.set(key, left);
    };
  }
}
