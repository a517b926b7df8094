import { z } from 'zod';
import { BatchItemCountsSchema, BatchItemStatusSchema, FinalBatchStatusSchema } from './batches';
import { RUN_STATUSES, RunStatusSchema, RunStopReasonSchema, StopReasonSchema, WireStatusSchema } from './status';
import { TokenUsageSchema } from './usage';
import { LeadRunStateSchema } from './workflow-io';

/** One task in `deerflow run --json` (SCRIPTED_MODEL.md). */
export const RunJsonTaskSchema = z.strictObject({
  task_id: z.string(),
  subagent: z.string(),
  description: z.string(),
  status: WireStatusSchema,
  stop_reason: StopReasonSchema.nullable(),
  model: z.string().nullable(),
  token_usage: TokenUsageSchema.nullable(),
  result: z.string().nullable(),
  error: z.string().nullable(),
  attempts: z.number().int().nonnegative(),
  /** Steps the last execution resumed from an earlier attempt instead of running them again. */
  resumed_steps: z.number().int().nonnegative(),
});
export type RunJsonTask = z.infer<typeof RunJsonTaskSchema>;

/** One of the lead's own tool calls in `deerflow run --json`; `call_id` is the id the run assigned. */
export const RunJsonLeadToolSchema = z.strictObject({
  call_id: z.string(),
  tool: z.string(),
  status: z.enum(['completed', 'failed', 'cancelled']),
  error: z.string().nullable(),
});
export type RunJsonLeadTool = z.infer<typeof RunJsonLeadToolSchema>;

/** The object `deerflow run --json` prints: the single source of truth for that output. */
export const RunJsonOutputSchema = z.strictObject({
  run_id: z.string(),
  thread_id: z.string(),
  workflow_id: z.string(),
  status: RunStatusSchema,
  /** Why the run stopped early, or null. */
  stop_reason: RunStopReasonSchema.nullable(),
  final_message: z.string().nullable(),
  tasks: z.array(RunJsonTaskSchema),
  lead_tools: z.array(RunJsonLeadToolSchema),
  stripped_task_calls: z.number().int().nonnegative(),
  events: z.record(z.string(), z.number().int().nonnegative()),
});
export type RunJsonOutput = z.infer<typeof RunJsonOutputSchema>;

/** One item in `deerflow batch --json`; `index` is the item's position (its non-blank line, 0-based). */
export const BatchJsonItemSchema = z.strictObject({
  index: z.number().int().nonnegative(),
  status: BatchItemStatusSchema,
  attempts: z.number().int().nonnegative(),
  stop_reason: StopReasonSchema.nullable(),
  result: z.string().nullable(),
  error: z.string().nullable(),
});
export type BatchJsonItem = z.infer<typeof BatchJsonItemSchema>;

/** The object `deerflow batch --json` prints: the single source of truth for that output. */
export const BatchJsonOutputSchema = z.strictObject({
  batch_id: z.string(),
  status: FinalBatchStatusSchema,
  counts: BatchItemCountsSchema,
  items: z.array(BatchJsonItemSchema),
});
export type BatchJsonOutput = z.infer<typeof BatchJsonOutputSchema>;

/**
 * `DeerflowRunStatus` values a lead run upserts: `running`, `waiting_for_answer` (it asked the user),
 * then its final status. What `deerflow runs list --status` accepts.
 */
export const RunSearchStatusSchema = z.enum(['running', 'waiting_for_answer', ...RUN_STATUSES]);
export type RunSearchStatus = z.infer<typeof RunSearchStatusSchema>;

/** One lead run in `deerflow runs list --json`, as Temporal visibility knows it (null: not set on the run). */
export const RunsListEntrySchema = z.strictObject({
  workflow_id: z.string(),
  thread_id: z.string().nullable(),
  run_id: z.string().nullable(),
  user_id: z.string().nullable(),
  agent: z.string().nullable(),
  /** `DeerflowRunStatus`; null before the run's first workflow task. */
  status: z.string().nullable(),
  /** Temporal's execution status (`RUNNING`, `COMPLETED`, `FAILED`, `CANCELLED`, `TERMINATED`, ...). */
  execution_status: z.string(),
  started_at: z.string(),
  closed_at: z.string().nullable(),
});
export type RunsListEntry = z.infer<typeof RunsListEntrySchema>;

/** The object `deerflow runs list --json` prints, newest run first. */
export const RunsListJsonOutputSchema = z.strictObject({ runs: z.array(RunsListEntrySchema) });
export type RunsListJsonOutput = z.infer<typeof RunsListJsonOutputSchema>;

/** The object `deerflow runs show --json` prints: the run's live state (query `state`). */
export const RunShowJsonOutputSchema = z.strictObject({
  workflow_id: z.string(),
  execution_status: z.string(),
  state: LeadRunStateSchema,
});
export type RunShowJsonOutput = z.infer<typeof RunShowJsonOutputSchema>;
