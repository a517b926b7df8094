import { createHash } from 'node:crypto';
import type { BatchItemExecution } from '../../../src/contracts';
import type { BatchItemInput, CompleteBatchItemInput, CreateBatchInput } from '../../../src/contracts/batches';
import { isBatchStoreError, type BatchStoreError } from '../../../src/store';

/** The owner of every fixture batch. */
export const OWNER = 'user-1';
/** `max_items_per_batch` the fixtures create with. */
export const MAX_ITEMS = 5000;

/** Items `{ key, prompt: "do <key>" }`. */
export const itemsFor = (keys: readonly string[]): BatchItemInput[] => keys.map((key) => ({ key, prompt: `do ${key}` }));

/** Batch `b1` of {@link OWNER} with items a, b, c unless overridden. */
export function batchInput(overrides: Partial<CreateBatchInput> = {}): CreateBatchInput {
  return {
    batchId: 'b1',
    ownerId: OWNER,
    title: 'Summaries',
    subagentType: 'general-purpose',
    items: itemsFor(['a', 'b', 'c']),
    limits: { maxLiveItems: 10, maxRunningItems: 3, maxAttempts: 3 },
    ...overrides,
  };
}

/** Attempt 1 of item `key` of batch `b1` (thread `t1`, {@link OWNER}), as a batch item workflow schedules it. */
export function itemExecution(key: string, overrides: Partial<BatchItemExecution> = {}): BatchItemExecution {
  return {
    kind: 'batchItem',
    threadId: 't1',
    batchId: 'b1',
    key,
    userId: OWNER,
    attempt: 1,
    subagentType: 'general-purpose',
    description: key,
    parentModel: 'm',
    maxTurns: 5,
    availableSkills: null,
    ...overrides,
  };
}

export const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** A `completed` completion of attempt 1 with `result`, at fixed workflow times. */
export function completion(result: string | null = 'done', overrides: Partial<CompleteBatchItemInput> = {}): CompleteBatchItemInput {
  return {
    status: 'completed',
    result,
    resultSha256: result === null ? null : sha256(result),
    attempts: 1,
    startedAt: '2025-01-01T00:00:00.000Z',
    completedAt: '2025-01-01T00:00:05.000Z',
    ...overrides,
  };
}

/** Rejects with a BatchStoreError of `code` whose message contains `text`. */
export async function expectBatchError(p: Promise<unknown>, code: BatchStoreError['code'], text: string): Promise<BatchStoreError> {
  const err: unknown = await p.then(
    () => new Error('expected a rejection'),
    (e: unknown) => e,
  );
  if (!isBatchStoreError(err, code)) throw new Error(`expected BatchStoreError ${code}, got ${String(err)}`);
  expect(err.name).toBe('BatchStoreError');
  expect(err.message).toContain(text);
  return err;
}

/** Everything an async iterable yields. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const value of iterable) out.push(value);
  return out;
}

/** Code-point order (what both backends sort keys by); JS `<` compares UTF-16 code units. */
export function byCodePoint(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0)!);
  const y = Array.from(b, (c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i += 1) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}
