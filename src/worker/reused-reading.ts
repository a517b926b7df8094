/**
 * Wraps `read` so that a reading is reused for `maxAgeMs` from when it was asked for, and callers
 * that ask while a read is in flight share it. A failed read is not reused: the next caller reads
 * again.
 */
export function reusedReading<T>(read: () => Promise<T>, maxAgeMs: number, now: () => number = Date.now): () => Promise<T> {
  let last: { readonly at: number; readonly value: Promise<T> } | null = null;
  return () => {
    const at = now();
    if (last !== null && at - last.at < maxAgeMs) return last.value;
    const value = read();
    last = { at, value };
    value.catch(() => {
      if (last?.value === value) last = null;
    });
    return value;
  };
}
