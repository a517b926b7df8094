import { z } from 'zod';
import { StopReasonSchema } from './status';
import { TokenUsageSchema } from './usage';

/** Category of subagent lifecycle rows; they stay out of the thread message feed. */
export const SUBAGENT_EVENT_CATEGORY = 'subagent';

export const SUBAGENT_EVENTS = ['subagent.start', 'subagent.step', 'subagent.end'] as const;

/**
 * A task's terminal row. The event store drops any later row of the same task: a cancelled or
 * timed-out subagent may still be flushing steps after the workflow recorded its end.
 */
export const TASK_END_EVENT = 'subagent.end';
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
  /**
   * On the first step of an execution that resumed from an earlier attempt's checkpoint: the
   * `message_index` it took over (the steps up to it were not run again).
   */
  resumed_from: z.number().int().nonnegative().optional(),
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
  /** Executions the task took (more than 1 after a lost or stopped worker). */
  attempts: z.number().int().nonnegative().optional(),
  /** Steps the last execution resumed from an earlier attempt instead of running them again. */
  resumed_steps: z.number().int().nonnegative().optional(),
});
export type SubagentEndPayload = z.infer<typeof SubagentEndPayloadSchema>;

/** Category of the lead's own tool-call rows (`tool.start`, `tool.end`), next to the subagent rows. */
export const LEAD_TOOL_EVENT_CATEGORY = 'tool';

export const LEAD_TOOL_EVENTS = ['tool.start', 'tool.end'] as const;
export type LeadToolEventName = (typeof LEAD_TOOL_EVENTS)[number];

/** Payload of `tool.start`: one lead tool call began (`task_id` of the row is the call id). */
export const LeadToolStartPayloadSchema = z.object({
  call_id: z.string(),
  tool: z.string(),
  /** Serialized arguments, cut at {@link SUBAGENT_STEP_MAX_CHARS}. */
  args: z.string(),
  args_truncated: z.literal(true).optional(),
});
export type LeadToolStartPayload = z.infer<typeof LeadToolStartPayloadSchema>;

/** Payload of the single `tool.end` of a lead tool call. */
export const LeadToolEndPayloadSchema = z.object({
  call_id: z.string(),
  tool: z.string(),
  status: z.enum(['completed', 'failed', 'cancelled']),
  output: z.string().optional(),
  output_truncated: z.literal(true).optional(),
  error: z.string().optional(),
});
export type LeadToolEndPayload = z.infer<typeof LeadToolEndPayloadSchema>;

/** Category of a lead run's `ask_clarification` rows: the question asked, answered, or left unanswered. */
export const CLARIFICATION_EVENT_CATEGORY = 'clarification';
export const CLARIFICATION_EVENTS = ['clarification.asked', 'clarification.answered', 'clarification.timed_out'] as const;
export type ClarificationEventName = (typeof CLARIFICATION_EVENTS)[number];

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
