import { z } from 'zod';
import { StopReasonSchema } from './status';
import { TokenUsageSchema } from './usage';

/** Category of subagent lifecycle rows; they stay out of the thread message feed. */
export const SUBAGENT_EVENT_CATEGORY = 'subagent';

export const SUBAGENT_EVENTS = ['subagent.start', 'subagent.step', 'subagent.end'] as const;
export const SubagentEventNameSchema = z.enum(SUBAGENT_EVENTS);
export type SubagentEventName = z.infer<typeof SubagentEventNameSchema>;

/** Longest step text (and serialized tool-call args) kept in a `subagent.step` row (SPEC §4.2). */
export const SUBAGENT_STEP_MAX_CHARS = 8192;

export const StepToolCallSchema = z.union([
  z.object({ name: z.string(), args: z.unknown() }),
  z.object({ name: z.string(), args: z.string(), args_truncated: z.literal(true) }),
]);

/** Payload of `subagent.step` (SPEC §4.2). */
export const SubagentStepPayloadSchema = z.object({
  task_id: z.string(),
  message_index: z.number().int().nonnegative(),
  kind: z.enum(['ai', 'tool']),
  text: z.string(),
  truncated: z.boolean(),
  tool_name: z.string().nullable().optional(),
  tool_calls: z.array(StepToolCallSchema).optional(),
  /** Steps captured so far when this one was (SPEC §3.7 `task_running.total_messages`). */
  total_messages: z.number().int().positive().optional(),
  /** The task's cumulative usage after this step: replace, never add (SPEC §3.8). */
  usage: TokenUsageSchema.nullable().optional(),
});
export type SubagentStepPayload = z.infer<typeof SubagentStepPayloadSchema>;

/** Payload of `subagent.start`. */
export const SubagentStartPayloadSchema = z.object({
  task_id: z.string(),
  description: z.string().nullable(),
  subagent: z.string(),
  model_name: z.string(),
  attempt: z.number().int().min(1),
});
export type SubagentStartPayload = z.infer<typeof SubagentStartPayloadSchema>;

/** Payload of the single terminal `subagent.end` (SPEC §4.3). */
export const SubagentEndPayloadSchema = z.object({
  task_id: z.string(),
  status: z.enum(['completed', 'failed', 'cancelled', 'timed_out']),
  model_name: z.string().optional(),
  usage: TokenUsageSchema.optional(),
  stop_reason: StopReasonSchema.optional(),
  result: z.string().optional(),
  result_truncated: z.literal(true).optional(),
  error: z.string().optional(),
  error_truncated: z.literal(true).optional(),
});
export type SubagentEndPayload = z.infer<typeof SubagentEndPayloadSchema>;

/** A stored run event row. */
export interface RunEvent {
  readonly seq: number;
  readonly runId: string;
  readonly threadId: string;
  readonly category: string;
  readonly event: string;
  readonly taskId: string | null;
  readonly createdAt: string;
  readonly payload: unknown;
}
