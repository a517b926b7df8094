import { createHash } from 'node:crypto';
import { z } from 'zod';
import { boundText } from '../contracts/bounded-text';
import {
  BATCH_ATTEMPT_HISTORY_MAX,
  BATCH_LIST_MAX_LIMIT,
  BatchAttemptInputSchema,
  BatchAttemptSchema,
  BatchItemRecordSchema,
  BatchItemSummarySchema,
  BatchRecordSchema,
  CompleteBatchItemInputSchema,
  CreateBatchInputSchema,
  ListBatchItemsQuerySchema,
  type BatchAttempt,
  type BatchItemCounts,
  type BatchItemStatus,
  type BatchItemRecord,
  type BatchItemSummary,
  type BatchRecord,
  type TerminalBatchItemStatus,
} from '../contracts/batches';
import type { StopReason } from '../contracts/status';
import type { TokenUsage } from '../contracts/usage';
import { BatchStoreError } from './errors';
import { storeIssueLines } from './store-issue-lines';

/** A validated `createBatch` input with defaults applied: what a backend stores. @internal */
export type ParsedBatch = z.output<typeof CreateBatchInputSchema>;
/** A validated `listItems` query. @internal */
export type ParsedListQuery = z.output<typeof ListBatchItemsQuerySchema>;

/** Items per page of `exportItems` (full results of up to `max_result_chars` each). @internal */
export const EXPORT_PAGE_SIZE = 100;
/** Items per multi-row INSERT of `createBatch`. @internal */
export const INSERT_CHUNK_SIZE = 500;

// Messages that name the limit plainly (`limits.maxAttempts: must be <= 10`); messages written
// into the contract schemas take precedence.
function issueText(iss: z.core.$ZodRawIssue): string | undefined {
  if (iss.code === 'too_small' || iss.code === 'too_big') {
    const small = iss.code === 'too_small';
    const limit = small ? iss.minimum : iss.maximum;
    if (iss.origin === 'string') return `must be at ${small ? 'least' : 'most'} ${limit} characters`;
    if (iss.origin === 'array') return `must have at ${small ? 'least' : 'most'} ${limit} items`;
    return `must be ${small ? '>' : '<'}${iss.inclusive === false ? '' : '='} ${limit}`;
  }
  if (iss.code === 'invalid_type') return iss.input === undefined ? 'is required' : `must be ${iss.expected === 'int' ? 'an integer' : `of type ${iss.expected}`}`;
  return undefined;
}

/**
 * Validates `input` against `schema` (defaults applied).
 * @throws BatchStoreError `invalid`, one `field: problem` issue per problem
 * @internal
 */
export function parseBatchInput<S extends z.ZodType>(schema: S, input: unknown, batchId: string | null, key: string | null = null): z.output<S> {
  const parsed = schema.safeParse(input, { error: issueText });
  if (!parsed.success) throw BatchStoreError.invalid(batchId, key, storeIssueLines(parsed.error), parsed.error);
  return parsed.data;
}

/**
 * Validates a whole `createBatch` request before anything is written: one bad item, a duplicate
 * key or too many items rejects all of it.
 * @throws BatchStoreError `invalid`
 * @internal
 */
export function parseCreateBatch(input: unknown, maxItems: number): ParsedBatch {
  const rec = typeof input === 'object' && input !== null ? (input as { batchId?: unknown; items?: unknown }) : {};
  const batchId = typeof rec.batchId === 'string' ? rec.batchId : null;
  // Count first: a request far over the limit is refused without validating every item.
  if (Array.isArray(rec.items) && rec.items.length > maxItems) {
    throw BatchStoreError.invalid(batchId, null, [`items: must have at most ${maxItems} items (max_items_per_batch)`]);
  }
  return parseBatchInput(CreateBatchInputSchema, input, batchId);
}

/** @internal */
export const parseListQuery = (batchId: string, query: unknown): ParsedListQuery => parseBatchInput(ListBatchItemsQuerySchema, query, batchId);

// Built once: zod compiles a parser per schema object, which costs more than the parse itself.
// An object, so a refusal names the field (`limit: must be >= 1`).
const PageLimitSchema = z.strictObject({ limit: z.number().int().min(1).max(BATCH_LIST_MAX_LIMIT) });
const RunningMarkSchema = z.strictObject({ attempt: z.number().int().min(1), at: z.iso.datetime({ offset: true }).optional() });
const LeaseAttemptSchema = z.number().int().min(1);
// Compared with stored keys as given: no trimming.
const ThroughKeySchema = z.strictObject({ throughKey: z.string().min(1) });
const ItemLeaseSchema = z.strictObject({ attempt: LeaseAttemptSchema, leaseMs: z.number().int().min(1), nowMs: z.number().int().min(0) });
const LeaseReleaseSchema = z.strictObject({ attempt: LeaseAttemptSchema });

/** @throws BatchStoreError `invalid` unless `limit` is an integer in 1..1000. @internal */
export function checkPageLimit(batchId: string, limit: number): number {
  return parseBatchInput(PageLimitSchema, { limit }, batchId).limit;
}

/** @throws BatchStoreError `invalid` for an empty key bound. @internal */
export function checkThroughKey(batchId: string, throughKey: string): string {
  return parseBatchInput(ThroughKeySchema, { throughKey }, batchId).throughKey;
}

/** Counts by status from `(status, n)` rows; statuses without rows count 0. @internal */
export function countsFromRows(rows: ReadonlyArray<{ status: string; n: number | string }>): BatchItemCounts {
  const counts: BatchItemCounts = { pending: 0, running: 0, completed: 0, failed: 0, cancelled: 0, timed_out: 0 };
  for (const row of rows) if (row.status in counts) counts[row.status as keyof BatchItemCounts] = Number(row.n);
  return counts;
}

/** @throws BatchStoreError `invalid` unless `attempt` >= 1 and `at` (if given) is ISO 8601. @internal */
export function parseRunningMark(batchId: string, key: string, attempt: number, at: string | undefined): { attempt: number; at: string } {
  const parsed = parseBatchInput(RunningMarkSchema, { attempt, at }, batchId, key);
  return { attempt: parsed.attempt, at: new Date(parsed.at ?? Date.now()).toISOString() };
}

/** @throws BatchStoreError `invalid` unless `attempt` and `leaseMs` are >= 1 and `nowMs` is an integer >= 0. @internal */
export function parseItemLease(batchId: string, key: string, attempt: number, leaseMs: number, nowMs: number): { attempt: number; leaseMs: number; nowMs: number } {
  return parseBatchInput(ItemLeaseSchema, { attempt, leaseMs, nowMs }, batchId, key);
}

/**
 * Whether attempt `attempt` is refused the item's lease: the item is terminal, or a later attempt
 * has taken it. A pending item, or one running in this or an earlier attempt, may be leased. @internal
 */
export function leaseFenced(item: { status: BatchItemStatus; attempts: number }, attempt: number): boolean {
  return (item.status !== 'pending' && item.status !== 'running') || item.attempts > attempt;
}

/** @throws BatchStoreError `invalid` unless `attempt` >= 1. @internal */
export function parseLeaseAttempt(batchId: string, key: string, attempt: number): number {
  return parseBatchInput(LeaseReleaseSchema, { attempt }, batchId, key).attempt;
}

/**
 * sha256 of the batch content (everything `createBatch` stores but the times): a repeated create
 * with the same hash is a retry, a different hash is a conflict. @internal
 */
export function contentSha256(batch: ParsedBatch): string {
  return createHash('sha256').update(JSON.stringify(batch)).digest('hex');
}

/**
 * The first `max` UTF-16 code units of `text`, one fewer when the cut would split a surrogate
 * pair (a lone surrogate would not survive UTF-8 storage). @internal
 */
export function boundChars(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/** Error texts are metadata: U+0000 becomes U+FFFD (PostgreSQL text) and the length is bounded. */
function storedError(error: string | null): string | null {
  return error === null ? null : boundText(error.replaceAll('\u0000', '\ufffd'));
}

/** A validated completion, bounded and ready to store. @internal */
export interface PreparedCompletion {
  readonly status: TerminalBatchItemStatus;
  readonly result: string | null;
  readonly resultPreview: string | null;
  readonly resultChars: number | null;
  readonly resultTruncated: boolean;
  readonly resultSha256: string | null;
  readonly stopReason: StopReason | null;
  readonly error: string | null;
  readonly attempts: number;
  readonly usage: TokenUsage | null;
  readonly startedAt: string | null;
  readonly completedAt: string;
}

/**
 * Validates a completion and bounds its result to the batch limits.
 * @throws BatchStoreError `invalid`
 * @internal
 */
export function prepareCompletion(batchId: string, key: string, input: unknown, limits: { maxResultChars: number; previewChars: number }): PreparedCompletion {
  const c = parseBatchInput(CompleteBatchItemInputSchema, input, batchId, key);
  const result = c.result === null ? null : boundChars(c.result, limits.maxResultChars);
  return {
    status: c.status,
    result,
    resultPreview: c.result === null ? null : boundChars(c.result, limits.previewChars),
    resultChars: c.result?.length ?? null,
    resultTruncated: c.result !== null && result !== c.result,
    resultSha256: c.resultSha256,
    stopReason: c.stopReason,
    error: storedError(c.error),
    attempts: c.attempts,
    usage: c.usage,
    startedAt: c.startedAt,
    completedAt: c.completedAt,
  };
}

/** The fields of a stored terminal row that identify its completion. @internal */
export interface CompletionIdentity {
  readonly status: string;
  readonly attempts: number;
  readonly completed_at: string | null;
  readonly result_sha256: string | null;
}

/** True when a terminal row holds exactly this completion (a retried `completeItem`). @internal */
export function isSameCompletion(row: CompletionIdentity, c: PreparedCompletion): boolean {
  return row.status === c.status && row.attempts === c.attempts && row.completed_at === c.completedAt && row.result_sha256 === c.resultSha256;
}

/**
 * Validates an attempt entry and appends it to `history`: `next` is the history to store, or
 * null when the same entry is already there (a retried activity). Keeps the latest entries.
 * @throws BatchStoreError `invalid`
 * @internal
 */
export function appendAttempt(batchId: string, key: string, history: unknown, input: unknown): { entry: BatchAttempt; next: BatchAttempt[] | null } {
  const parsed = parseBatchInput(BatchAttemptInputSchema, input, batchId, key);
  const entry: BatchAttempt = { ...parsed, error: storedError(parsed.error) };
  const current = z.array(BatchAttemptSchema).parse(history);
  const dup = current.some((a) => a.attempt === entry.attempt && a.outcome === entry.outcome && a.error === entry.error && a.at === entry.at);
  return { entry, next: dup ? null : [...current, entry].slice(-BATCH_ATTEMPT_HISTORY_MAX) };
}

/** A batch row as both backends read it back (times as ISO strings, counts by status). @internal */
export interface BatchRow {
  readonly batch_id: string;
  readonly owner_id: string;
  readonly run_id: string | null;
  readonly title: string;
  readonly subagent_type: string;
  readonly status: string;
  readonly max_live_items: number;
  readonly max_running_items: number;
  readonly max_attempts: number;
  readonly max_result_chars: number;
  readonly result_preview_max_chars: number;
  readonly item_count: number;
  readonly created_at: string;
  readonly updated_at: string;
  readonly finished_at: string | null;
  /** `{ status: count }` for the statuses that have items. */
  readonly counts: Readonly<Record<string, number>>;
}

/** @internal */
export function toBatchRecord(r: BatchRow): BatchRecord {
  return BatchRecordSchema.parse({
    batch_id: r.batch_id,
    owner_id: r.owner_id,
    run_id: r.run_id,
    title: r.title,
    subagent_type: r.subagent_type,
    status: r.status,
    limits: {
      max_live_items: r.max_live_items,
      max_running_items: r.max_running_items,
      max_attempts: r.max_attempts,
      max_result_chars: r.max_result_chars,
      result_preview_max_chars: r.result_preview_max_chars,
    },
    item_count: r.item_count,
    counts: countsFromRows(Object.entries(r.counts).map(([status, n]) => ({ status, n }))),
    created_at: r.created_at,
    updated_at: r.updated_at,
    finished_at: r.finished_at,
  });
}

/** An item row as both backends read it back; JSON columns already parsed. @internal */
export interface ItemRow {
  readonly batch_id: string;
  readonly key: string;
  readonly position: number;
  readonly prompt: string;
  readonly acceptance_criteria: unknown;
  readonly status: string;
  readonly attempts: number;
  readonly attempt_history: unknown;
  readonly result_chars: number | null;
  readonly result_truncated: boolean;
  readonly result_sha256: string | null;
  readonly stop_reason: string | null;
  readonly error: string | null;
  readonly usage: unknown;
  readonly started_at: string | null;
  readonly completed_at: string | null;
  readonly updated_at: string;
}

/** @internal */
export function toItemRecord(r: ItemRow & { readonly result: string | null }): BatchItemRecord {
  return BatchItemRecordSchema.parse({ ...r });
}

/** @internal */
export function toItemSummary(r: ItemRow & { readonly result_preview: string | null }): BatchItemSummary {
  const truncated = r.result_preview !== null && r.result_chars !== null && r.result_preview.length < r.result_chars;
  return BatchItemSummarySchema.parse({ ...r, result_preview_truncated: truncated });
}

/**
 * Yields every item of a batch in key order, one page of {@link EXPORT_PAGE_SIZE} at a time, so
 * an export never holds the whole batch. Paging by key has no gaps or repeats even while items
 * change between pages. @internal
 */
export async function* pageByKey(fetchPage: (afterKey: string, limit: number) => Promise<BatchItemRecord[]>): AsyncGenerator<BatchItemRecord> {
  // Keys are never empty, so every key sorts after '' and the first page needs no special query.
  let afterKey = '';
  for (;;) {
    const page = await fetchPage(afterKey, EXPORT_PAGE_SIZE);
    yield* page;
    if (page.length < EXPORT_PAGE_SIZE) return;
    afterKey = page[page.length - 1]!.key;
  }
}
