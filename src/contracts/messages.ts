import { z } from 'zod';
import { AdmissionSnapshotSchema } from './admission-snapshot';
import { TokenUsageSchema } from './usage';

/** A tool call as the workflow sees it: string args are bounded briefs, see `argsTruncated`. */
export const ToolCallSchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  args: z.record(z.string(), z.unknown()),
  /** True when at least one string arg was cut; the full args stay in the stored AI message. */
  argsTruncated: z.boolean(),
});
export type ToolCall = z.infer<typeof ToolCallSchema>;

/** What one lead model step returns to the workflow: references and bounded briefs, no transcript. */
export const LeadModelTurnSchema = z.object({
  /** Store key of the full AI message. */
  messageRef: z.string(),
  contentBrief: z.string(),
  contentSha256: z.string(),
  toolCalls: z.array(ToolCallSchema),
  finishReason: z.string().nullable(),
  usage: TokenUsageSchema.nullable(),
  modelName: z.string(),
  /**
   * The per-response limit this step advertised: the run's limit, never above the worker's
   * startup `subagent_runtime.max_running`. Absent in histories written before it existed.
   */
  maxConcurrent: z.number().int().min(1).optional(),
  /**
   * Set when the model call finally failed and the stored message is the error fallback (SPEC
   * §2.8 marker): the provider's reason and message. Absent in histories written before it existed.
   */
  errorFallback: z.object({ reason: z.string(), detail: z.string() }).nullable().optional(),
  /**
   * What admitting the response's tasks needs, read at the end of the step: set when the run asked
   * for it (`admissionSnapshot`) and the response has `task` calls. A run that finds it here admits
   * without an activity; a step of a worker from before it (or a run that did not ask) leaves it
   * out, and the run admits in `admitSubagents` as before.
   */
  admission: AdmissionSnapshotSchema.optional(),
});
export type LeadModelTurn = z.infer<typeof LeadModelTurnSchema>;
