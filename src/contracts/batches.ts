import { z } from 'zod';
import { AgentNameSchema } from './agent-definitions';
import { StopReasonSchema } from './status';
import { TokenUsageSchema } from './usage';

/**
 * Durable batches (SPEC Appendix C.3): one subagent type, many items, each done exactly once.
 * Inputs are camelCase (what workflows and activities pass); records are snake_case (what the
 * gateway serves and the JSONL export writes).
 */

/** Lifecycle of a batch. `running` until the batch workflow finishes it or its owner cancels it. */
export const BatchStatus = {
  running: 'running',
  completed: 'completed',
  cancelled: 'cancelled',
  failed: 'failed',
} as const;
/** Union of {@link BatchStatus} values. */
export type BatchStatus = (typeof BatchStatus)[keyof typeof BatchStatus];
export const BatchStatusSchema = z.enum(BatchStatus);

/** The statuses `finishBatch` may set: every batch status but `running`. */
export type FinalBatchStatus = Exclude<BatchStatus, 'running'>;
export const FinalBatchStatusSchema = z.enum(['completed', 'cancelled', 'failed']);

/** Lifecycle of one item. The last four are terminal: a terminal row never changes again. */
export const BatchItemStatus = {
  pending: 'pending',
  running: 'running',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
  timed_out: 'timed_out',
} as const;
/** Union of {@link BatchItemStatus} values. */
export type BatchItemStatus = (typeof BatchItemStatus)[keyof typeof BatchItemStatus];
export const BatchItemStatusSchema = z.enum(BatchItemStatus);

/** Terminal item statuses, the ones `completeItem` may write. */
export type TerminalBatchItemStatus = Exclude<BatchItemStatus, 'pending' | 'running'>;
export const TerminalBatchItemStatusSchema = z.enum(['completed', 'failed', 'cancelled', 'timed_out']);

/** True for item statuses after which the row never changes (the fence for late completions). */
export function isTerminalBatchItemStatus(status: BatchItemStatus): status is TerminalBatchItemStatus {
  switch (status) {
    case 'pending':
    case 'running':
      return false;
    case 'completed':
    case 'failed':
    case 'cancelled':
    case 'timed_out':
      return true;
    default: {
      const unknownStatus: never = status;
      throw new Error(`unknown batch item status ${String(unknownStatus)}`);
    }
  }
}

/**
 * How one non-final attempt of an item ended. `capacity_rejected` / `capacity_timeout` happen
 * before the model runs and use no attempt; `failed` and `lost` (expired lease) use one.
 */
export const BatchAttemptOutcome = {
  failed: 'failed',
  capacity_rejected: 'capacity_rejected',
  capacity_timeout: 'capacity_timeout',
  lost: 'lost',
} as const;
/** Union of {@link BatchAttemptOutcome} values. */
export type BatchAttemptOutcome = (typeof BatchAttemptOutcome)[keyof typeof BatchAttemptOutcome];
export const BatchAttemptOutcomeSchema = z.enum(BatchAttemptOutcome);

/** Longest item key, batch id, owner id or run id. */
export const BATCH_ID_MAX_CHARS = 200;
/** Longest item prompt. */
export const BATCH_PROMPT_MAX_CHARS = 100_000;
/** Default bound of a stored item result (`subagent_batches.max_result_chars`). @default 100000 */
export const DEFAULT_BATCH_MAX_RESULT_CHARS = 100_000;
/** Default bound of the result preview in listings (`result_preview_max_chars`). @default 2000 */
export const DEFAULT_BATCH_RESULT_PREVIEW_MAX_CHARS = 2000;
/** Largest `limit` of one `listItems` page. */
export const BATCH_LIST_MAX_LIMIT = 1000;
/** Most entries an item's attempt history keeps (the latest ones). */
export const BATCH_ATTEMPT_HISTORY_MAX = 100;

// Control characters (U+0000 above all: PostgreSQL text cannot hold it) never belong in ids or
// prompts; refusing them keeps both backends storing exactly what was given.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
// eslint-disable-next-line no-control-regex
const NUL = /\u0000/;
// A lone UTF-16 surrogate (JSON may carry one as `\ud800`) has no UTF-8 form: the database would
// store replacement characters instead, and two different keys could collide.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UNPAIRED = 'must be valid Unicode (no unpaired surrogates)';
const wellFormed = (s: string): boolean => !LONE_SURROGATE.test(s);

const idText = z
  .string()
  .min(1, 'must not be empty')
  .max(BATCH_ID_MAX_CHARS, `must be at most ${BATCH_ID_MAX_CHARS} characters`)
  .refine((s) => !CONTROL.test(s) && s.trim() === s, 'must have no control characters and no surrounding spaces')
  .refine(wellFormed, UNPAIRED);

const noNul = (s: string): boolean => !NUL.test(s);
const isoTime = z.iso.datetime({ offset: true }).transform((s) => new Date(s).toISOString());
const count = z.number().int().nonnegative();

/** One item of a new batch. */
export const BatchItemInputSchema = z.strictObject({
  key: idText,
  prompt: z
    .string()
    .max(BATCH_PROMPT_MAX_CHARS)
    .refine((s) => s.trim() !== '', 'must not be empty')
    .refine(noNul, 'must not contain U+0000')
    .refine(wellFormed, UNPAIRED),
  acceptance_criteria: z.array(z.string().refine(noNul, 'must not contain U+0000').refine(wellFormed, UNPAIRED)).max(100).optional(),
});
export type BatchItemInput = z.input<typeof BatchItemInputSchema>;

/** Limits a batch is created with; stored on the batch so a config reload never changes them. */
export const BatchLimitsInputSchema = z
  .strictObject({
    maxLiveItems: z.number().int().min(1).max(100_000),
    maxRunningItems: z.number().int().min(1).max(64),
    maxAttempts: z.number().int().min(1).max(10),
    maxResultChars: z.number().int().min(1).max(10_000_000).default(DEFAULT_BATCH_MAX_RESULT_CHARS),
    resultPreviewMaxChars: z.number().int().min(0).max(100_000).default(DEFAULT_BATCH_RESULT_PREVIEW_MAX_CHARS),
  })
  .refine((l) => l.maxRunningItems <= l.maxLiveItems, { path: ['maxRunningItems'], message: 'must be <= maxLiveItems' })
  .refine((l) => l.resultPreviewMaxChars <= l.maxResultChars, { path: ['resultPreviewMaxChars'], message: 'must be <= maxResultChars' });
export type BatchLimitsInput = z.input<typeof BatchLimitsInputSchema>;

/** What `createBatch` takes. Item keys must be unique within the batch. */
export const CreateBatchInputSchema = z
  .strictObject({
    batchId: idText,
    ownerId: idText,
    title: z.string().trim().min(1, 'must not be empty').max(500).refine(noNul, 'must not contain U+0000').refine(wellFormed, UNPAIRED),
    subagentType: AgentNameSchema,
    items: z.array(BatchItemInputSchema).min(1),
    limits: BatchLimitsInputSchema,
    /** The lead run that created the batch, or null (CLI, HTTP). */
    runId: idText.nullable().default(null),
  })
  .superRefine((input, ctx) => {
    const seen = new Map<string, number>();
    input.items.forEach((item, i) => {
      const first = seen.get(item.key);
      if (first === undefined) seen.set(item.key, i);
      else ctx.addIssue({ code: 'custom', path: ['items', i, 'key'], message: `duplicate key "${item.key}" (first at items.${first})` });
    });
  });
export type CreateBatchInput = z.input<typeof CreateBatchInputSchema>;

/** One non-final attempt, appended to the item's history. `at` is chosen by the workflow. */
export const BatchAttemptInputSchema = z.strictObject({
  attempt: z.number().int().min(1),
  outcome: BatchAttemptOutcomeSchema,
  error: z.string().nullable().default(null),
  at: isoTime,
});
export type BatchAttemptInput = z.input<typeof BatchAttemptInputSchema>;

/** The terminal write of an item (`completeItem`). Times come from the workflow. */
export const CompleteBatchItemInputSchema = z.strictObject({
  status: TerminalBatchItemStatusSchema,
  /** The full result text; stored bounded to the batch's `max_result_chars`. */
  result: z.string().nullable().default(null),
  /** sha256 (hex) of the full, unbounded result. */
  resultSha256: z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hex digits').nullable().default(null),
  stopReason: StopReasonSchema.nullable().default(null),
  error: z.string().nullable().default(null),
  /** Attempts used (capacity rejections do not count). */
  attempts: count,
  usage: TokenUsageSchema.nullable().default(null),
  startedAt: isoTime.nullable().default(null),
  completedAt: isoTime,
});
export type CompleteBatchItemInput = z.input<typeof CompleteBatchItemInputSchema>;

/** One page of `listItems`: keys strictly after `afterKey`, in key order. */
export const ListBatchItemsQuerySchema = z.strictObject({
  afterKey: z.string().optional(),
  limit: z.number().int().min(1).max(BATCH_LIST_MAX_LIMIT),
  status: BatchItemStatusSchema.optional(),
});
export type ListBatchItemsQuery = z.input<typeof ListBatchItemsQuerySchema>;

/** Limits as stored on the batch. */
export const BatchLimitsSchema = z.strictObject({
  max_live_items: count,
  max_running_items: count,
  max_attempts: count,
  max_result_chars: count,
  result_preview_max_chars: count,
});
export type BatchLimits = z.infer<typeof BatchLimitsSchema>;

/** Item counts by status, computed by the database when the batch is read. */
export const BatchItemCountsSchema = z.strictObject({
  pending: count,
  running: count,
  completed: count,
  failed: count,
  cancelled: count,
  timed_out: count,
});
export type BatchItemCounts = z.infer<typeof BatchItemCountsSchema>;

/** A stored batch. Timestamps are UTC ISO 8601 with milliseconds and `Z`. */
export const BatchRecordSchema = z.strictObject({
  batch_id: z.string(),
  owner_id: z.string(),
  run_id: z.string().nullable(),
  title: z.string(),
  subagent_type: z.string(),
  status: BatchStatusSchema,
  limits: BatchLimitsSchema,
  item_count: count,
  counts: BatchItemCountsSchema,
  created_at: z.string(),
  updated_at: z.string(),
  finished_at: z.string().nullable(),
});
export type BatchRecord = z.infer<typeof BatchRecordSchema>;

/** One entry of an item's attempt history. */
export const BatchAttemptSchema = z.strictObject({
  attempt: z.number().int().min(1),
  outcome: BatchAttemptOutcomeSchema,
  error: z.string().nullable(),
  at: z.string(),
});
export type BatchAttempt = z.infer<typeof BatchAttemptSchema>;

const itemFields = {
  batch_id: z.string(),
  key: z.string(),
  /** Index of the item in the creating request. */
  position: count,
  prompt: z.string(),
  acceptance_criteria: z.array(z.string()).nullable(),
  status: BatchItemStatusSchema,
  /** The latest attempt started, then the attempts used once terminal. */
  attempts: count,
  attempt_history: z.array(BatchAttemptSchema),
  /** Length of the full result before bounding (UTF-16 code units). */
  result_chars: count.nullable(),
  result_truncated: z.boolean(),
  result_sha256: z.string().nullable(),
  stop_reason: StopReasonSchema.nullable(),
  error: z.string().nullable(),
  usage: TokenUsageSchema.nullable(),
  started_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  updated_at: z.string(),
};

/** A full stored item (`getItem`, JSONL export): the result bounded to `max_result_chars`. */
export const BatchItemRecordSchema = z.strictObject({ ...itemFields, result: z.string().nullable() });
export type BatchItemRecord = z.infer<typeof BatchItemRecordSchema>;

/** An item in a listing: the result replaced by a preview of `result_preview_max_chars`. */
export const BatchItemSummarySchema = z.strictObject({
  ...itemFields,
  result_preview: z.string().nullable(),
  result_preview_truncated: z.boolean(),
});
export type BatchItemSummary = z.infer<typeof BatchItemSummarySchema>;
