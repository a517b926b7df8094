import { isDeepStrictEqual } from 'node:util';

// JSON, not structuredClone: jest runs tests in a vm realm, and structuredClone builds objects of the
// outer realm, whose prototypes make deep-equality checks fail.
/** A deep copy of a JSON value. */
export function clone<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/** Freezes `value` and everything it holds, so a store that mutates its input throws. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** Remembers the first value read under a key and fails when a later read differs. */
export class Snapshots<T> {
  private readonly saved = new Map<string, T>();
  constructor(private readonly what: string) {}

  check(key: string, value: T): T {
    const before = this.saved.get(key);
    if (before === undefined) this.saved.set(key, clone(value));
    else if (!isDeepStrictEqual(before, value)) {
      throw new Error(`${this.what} ${key} changed after it was written:\n${JSON.stringify(before)}\n!==\n${JSON.stringify(value)}`);
    }
    return value;
  }

  forget(key: string): void {
    this.saved.delete(key);
  }
}
