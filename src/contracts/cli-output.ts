import { z } from 'zod';
import { BatchItemCountsSchema, BatchItemStatusSchema, FinalBatchStatusSchema } from './batches';
import { RunStatusSchema, RunStopReasonSchema, StopReasonSchema, WireStatusSchema } from './status';
import { TokenUsageSchema } from './usage';

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
