import type { RunEvent } from '../contracts';

/**
 * A row `putBatch` wrote, whose payload is parsed from its stored JSON text when first read: the
 * value `listEvents` returns for it (`undefined` as null, U+0000 as U+FFFD), in an object the
 * caller's input does not share. Writers hardly ever read it back, and parsing every row up front
 * was about 1.5 µs of the ~3.5 per row SQLite's `putBatch` spent beyond a bare INSERT (bench/README.md,
 * the event-store findings).
 * @internal
 */
export function writtenRunEvent(row: Omit<RunEvent, 'payload'>, storedPayload: string): RunEvent {
  let parsed: { readonly value: unknown } | undefined;
  // An own enumerable accessor, so the row compares, spreads and serializes as a plain one does.
  return Object.defineProperty({ ...row } as RunEvent, 'payload', {
    enumerable: true,
    get: () => (parsed ??= { value: JSON.parse(storedPayload) as unknown }).value,
  });
}
