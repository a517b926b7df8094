import { z } from 'zod';
import { BatchAttemptOutcomeSchema, BatchItemCountsSchema, BatchStatusSchema, FinalBatchStatusSchema, TerminalBatchItemStatusSchema } from './batches';
import { StopReasonSchema } from './status';
import { TokenUsageSchema } from './usage';
import { CatalogEntrySchema } from './workflow-io';

/**
 * Inputs, state and results of `batchWorkflow` and `batchItemWorkflow`. Item prompts are not here:
 * they live in the BatchStore rows, written before the batch workflow starts, so histories carry
 * keys, statuses and counts only (a 5,000-item batch never puts its prompts in a payload).
 */

const id = z.string().trim().min(1);
const seconds = z.number().positive();

/** What every item of a batch runs with, resolved once when the batch was created. */
export const BatchItemRuntimeSchema = z.object({
  batchId: id,
  ownerId: id,
  /** Thread whose workspace and event feed the items use (the lead's thread, or the batch's own). */
  threadId: id,
  subagent: CatalogEntrySchema,
  /** Model a subagent inheriting its parent's model uses. */
  parentModel: id,
  availableSkills: z.array(z.string()).nullable(),
  maxAttempts: z.number().int().min(1).max(10),
  /** First wait after a capacity refusal or a failed attempt; doubles per repeat, up to 30 times this. */
  pollIntervalSeconds: seconds,
  /** The item's lease: `runSubagent` heartbeat timeout. A silent worker loses the attempt. */
  leaseSeconds: z.number().int().positive(),
});
export type BatchItemRuntime = z.infer<typeof BatchItemRuntimeSchema>;

/** Where an item workflow stands; carried over when it continues as new. */
export const BatchItemProgressSchema = z.object({
  /** Attempts used (capacity refusals use none). */
  attemptsUsed: z.number().int().nonnegative(),
  /** Capacity refusals in a row since the last execution (drives their backoff). */
  capacityWaits: z.number().int().nonnegative(),
  /** Workflow time of the first execution, ISO 8601. */
  startedAt: z.string().nullable(),
});
export type BatchItemProgress = z.infer<typeof BatchItemProgressSchema>;

/** Input of `batchItemWorkflow`. */
export const BatchItemWorkflowInputSchema = z.object({
  runtime: BatchItemRuntimeSchema,
  key: id,
  progress: BatchItemProgressSchema.default({ attemptsUsed: 0, capacityWaits: 0, startedAt: null }),
  /**
   * The batch started the item holding one of its running slots: the first try skips asking for
   * one. Absent in items started before slots came with the start, and in continued item runs.
   */
  slotGranted: z.boolean().optional(),
  /**
   * The item's tries lease their running slot in the store (`runBatchItem`): set by batches
   * started after patch `batch-item-leases`, and carried when the item continues as new. Absent
   * in items of older batches, which hand out running slots by signal.
   */
  leased: z.boolean().optional(),
});
export type BatchItemWorkflowInput = z.input<typeof BatchItemWorkflowInputSchema>;

/** What an item workflow returns: the item's status as stored (a fenced write returns the stored one). */
export const BatchItemOutcomeSchema = z.object({
  key: id,
  status: TerminalBatchItemStatusSchema,
  attempts: z.number().int().nonnegative(),
  stopReason: StopReasonSchema.nullable(),
});
export type BatchItemOutcome = z.infer<typeof BatchItemOutcomeSchema>;

/** Where a batch workflow stands; carried over when it continues as new. */
export const BatchCursorSchema = z.object({
  /** The last key started: later runs start strictly after it (keys start in key order). */
  afterKey: z.string().nullable(),
  /** Runs of this batch workflow before the current one (continue-as-new). */
  continuedRuns: z.number().int().nonnegative(),
  /** The item counts the previous run last knew: query `state` answers with them until this run has read the store (absent in older runs). */
  counts: BatchItemCountsSchema.optional(),
});
export type BatchCursor = z.infer<typeof BatchCursorSchema>;

/** Input of `batchWorkflow`. The batch and its items are already stored. */
export const BatchWorkflowInputSchema = z.object({
  runtime: BatchItemRuntimeSchema,
  title: z.string(),
  itemCount: z.number().int().min(1),
  maxLiveItems: z.number().int().min(1),
  maxRunningItems: z.number().int().min(1).max(64),
  /** Continue as new once the history has this many events (Temporal also suggests it near its limits). */
  historyEventLimit: z.number().int().min(100).default(10_000),
  cursor: BatchCursorSchema.default({ afterKey: null, continuedRuns: 0 }),
});
export type BatchWorkflowInput = z.input<typeof BatchWorkflowInputSchema>;

/** Live state of a batch (query `state`) and, once it ends, its result. */
export const BatchStateSchema = z.object({
  batchId: id,
  status: BatchStatusSchema,
  itemCount: z.number().int().nonnegative(),
  counts: BatchItemCountsSchema,
  /** Item workflows started and not finished. */
  liveItems: z.number().int().nonnegative(),
  /**
   * Items that may be executing: `min(live, max_running_items)` for batches whose items lease their
   * slot in the store (the store's `running` count says which do); older batches counted the items
   * holding a slot they handed out.
   */
  runningItems: z.number().int().nonnegative(),
  continuedRuns: z.number().int().nonnegative(),
});
export type BatchState = z.infer<typeof BatchStateSchema>;

/** Argument of the `cancelBatch` update: only the batch's owner may cancel it. */
export const CancelBatchRequestSchema = z.strictObject({ ownerId: id });
export type CancelBatchRequest = z.infer<typeof CancelBatchRequestSchema>;

/** Result of the `cancelBatch` update, once every nonterminal item is `cancelled` in the store. */
export const CancelBatchResultSchema = z.object({
  cancelledItems: z.number().int().nonnegative(),
  counts: BatchItemCountsSchema,
});
export type CancelBatchResult = z.infer<typeof CancelBatchResultSchema>;

/** Input of `recordBatchItemAttempt`: one non-final attempt, written to the item's history. */
export const BatchItemAttemptRecordSchema = z.object({
  batchId: id,
  key: id,
  attempt: z.number().int().min(1),
  outcome: BatchAttemptOutcomeSchema,
  error: z.string().nullable(),
  at: z.string(),
});
export type BatchItemAttemptRecord = z.infer<typeof BatchItemAttemptRecordSchema>;

/** Input of `nextBatchItems`: up to `limit` pending keys after `afterKey` (null: from the first), in key order. */
export const NextBatchItemsInputSchema = z.object({
  batchId: id,
  // As stored: keys compare exactly, so no trimming.
  afterKey: z.string().min(1).nullable(),
  limit: z.number().int().min(1),
});
export type NextBatchItemsInput = z.infer<typeof NextBatchItemsInputSchema>;

/** Input of `loadBatchProgress` and `cancelBatchItems`: a batch, for its owner. */
export const BatchOfOwnerInputSchema = z.object({ batchId: id, ownerId: id });
export type BatchOfOwnerInput = z.infer<typeof BatchOfOwnerInputSchema>;

/** Input of `finishBatch`: the batch's final status. */
export const FinishBatchInputSchema = z.object({ batchId: id, status: FinalBatchStatusSchema });
export type FinishBatchInput = z.infer<typeof FinishBatchInputSchema>;

/**
 * Input of `startBatchItemAttempt`: admission for one try of an item, then its `running` mark; and
 * of `markBatchItemRunning`, the mark alone (items started before patch `batch-item-start-attempt`).
 */
export const StartBatchItemAttemptInputSchema = z.object({
  batchId: id,
  key: id,
  attempt: z.number().int().min(1),
  at: z.string(),
});
export type StartBatchItemAttemptInput = z.infer<typeof StartBatchItemAttemptInputSchema>;

/** Input of `startedBatchItems`: the items a batch workflow's earlier runs started (keys up to `throughKey`). */
export const StartedBatchItemsInputSchema = z.object({
  runtime: BatchItemRuntimeSchema,
  // As stored: keys compare exactly, so no trimming.
  throughKey: z.string().min(1),
  settle: z.boolean(),
});
export type StartedBatchItemsInput = z.infer<typeof StartedBatchItemsInputSchema>;

/** Input of `cancelStartedBatchItems`: cancel the open items with keys up to `throughKey`. */
export const CancelStartedBatchItemsInputSchema = z.object({ batchId: id, throughKey: z.string().min(1) });
export type CancelStartedBatchItemsInput = z.infer<typeof CancelStartedBatchItemsInputSchema>;

/** Input of `finishBatchItem`: the item's terminal write and its `subagent.end` event. */
export const FinishBatchItemInputSchema = z.object({
  runtime: BatchItemRuntimeSchema,
  key: id,
  status: TerminalBatchItemStatusSchema,
  /** Store reference of the full result text (the activity reads and bounds it). */
  resultRef: z.string().nullable(),
  resultSha256: z.string().nullable(),
  stopReason: StopReasonSchema.nullable(),
  error: z.string().nullable(),
  attempts: z.number().int().nonnegative(),
  /**
   * The item was cancelled while a leased try was scheduled, which may or may not have taken its
   * lease: the attempts are the row's (taking a lease sets them), and the item's `subagent.end` is
   * written only if a try ever ran.
   */
  attemptsFromRow: z.boolean().optional(),
  modelName: z.string().nullable(),
  usage: TokenUsageSchema.nullable(),
  startedAt: z.string().nullable(),
  completedAt: z.string(),
});
export type FinishBatchItemInput = z.infer<typeof FinishBatchItemInputSchema>;
