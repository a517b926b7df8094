import type { RunEvent } from '../contracts';
import type { NewRunEvent } from './run-event-store';

/**
 * The row `putBatch` wrote for `event`, whose payload is parsed from its stored JSON text when first
 * read: the value `listEvents` returns for it (`undefined` as null, U+0000 as U+FFFD), in an object
 * the caller's input does not share. Writers hardly ever read it back, and parsing every row up front
 * was about 1.5 µs of the ~3.5 per row SQLite's `putBatch` spent beyond a bare INSERT (bench/README.md,
 * the event-store findings).
 * @internal
 */
export function writtenRunEvent(event: NewRunEvent, seq: number, createdAt: string, storedPayload: string): RunEvent {
  let parsed: { readonly value: unknown } | undefined;
  const row = { seq, runId: event.runId, threadId: event.threadId, category: event.category, event: event.event, taskId: event.taskId, createdAt };
  // An own enumerable accessor, so the row compares, spreads and serializes as a plain one does.
  return Object.defineProperty(row as typeof row & Pick<RunEvent, 'payload'>, 'payload', {
    enumerable: true,
    get: () => (parsed ??= { value: JSON.parse(storedPayload) as unknown }).value,
  });
}
