import { z } from 'zod';

/** Lifecycle status of one subagent execution (SPEC §2.1). */
export const SubagentStatus = {
  pending: 'pending',
  running: 'running',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
  timed_out: 'timed_out',
} as const;
export type SubagentStatus = (typeof SubagentStatus)[keyof typeof SubagentStatus];

/** Terminal statuses a task can end in, as seen on the wire (contract v2). */
export const WIRE_STATUSES = ['completed', 'failed', 'cancelled', 'timed_out', 'polling_timed_out'] as const;
export const WireStatusSchema = z.enum(WIRE_STATUSES);
export type WireStatus = z.infer<typeof WireStatusSchema>;

/** Why a guardrail ended a subagent early; additive to the status. */
export const STOP_REASONS = ['token_capped', 'turn_capped', 'loop_capped'] as const;
export const StopReasonSchema = z.enum(STOP_REASONS);
export type StopReason = z.infer<typeof StopReasonSchema>;

/** Why a lead run stopped early (recorded on the run, not on tasks). */
export const RUN_STOP_REASONS = [...STOP_REASONS, 'safety_capped', 'model_length_capped', 'subagent_limit_capped'] as const;
export const RunStopReasonSchema = z.enum(RUN_STOP_REASONS);
export type RunStopReason = z.infer<typeof RunStopReasonSchema>;

/** Final status of a lead run; `needs_input`: it asked the user a question nobody answered in time. */
export const RUN_STATUSES = ['completed', 'failed', 'cancelled', 'timed_out', 'needs_input'] as const;
export const RunStatusSchema = z.enum(RUN_STATUSES);
export type RunStatus = z.infer<typeof RunStatusSchema>;

/** Human labels used in `Task Succeeded (capped: <label>)` texts (SPEC §3.2). */
export const STOP_REASON_LABELS: Readonly<Record<StopReason, string>> = {
  token_capped: 'token budget',
  turn_capped: 'turn budget',
  loop_capped: 'repeated tool-call loop',
};

/** True for statuses after which nothing about a task may change. */
export function isTerminalStatus(status: SubagentStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled' || status === 'timed_out';
}
