import { z } from 'zod';
import { TokenUsageSchema } from './usage';
import { SubagentEvidenceSchema } from './workflow-io';

/**
 * What a `runSubagent` execution has spent and found so far. It is the execution's heartbeat
 * details and the details of the failure it ends with when it cannot return a result (cancelled,
 * past its own deadline), so a task that ends without a result keeps its usage, model and latest
 * evidence. Heartbeats recorded before this shape carried only `steps` and `usage`.
 */
export const SubagentProgressSchema = z.object({
  steps: z.number().int().nonnegative(),
  usage: TokenUsageSchema.nullable(),
  modelName: z.string().nullable().default(null),
  evidence: SubagentEvidenceSchema.nullable().default(null),
  /** Steps taken over from an earlier attempt's checkpoint: where this execution resumed (0: fresh). */
  resumedFrom: z.number().int().nonnegative().optional(),
});
export type SubagentProgress = z.infer<typeof SubagentProgressSchema>;

/**
 * Signal `taskProgress` from a running execution to its lead run, at most once per
 * `subagent_runtime.progress_signal_seconds`: the run shows it on the task while the task runs
 * (query `state`, Temporal Web's current details). What a task that ends without a result of its
 * own keeps is read from the progress store when its end is written (see `ToolOutcome`); runs
 * whose tasks signalled before every call kept the latest signal instead.
 */
export const TaskProgressReportSchema = z.object({
  taskId: z.string().min(1),
  attempt: z.number().int().min(1),
  progress: SubagentProgressSchema,
});
export type TaskProgressReport = z.infer<typeof TaskProgressReportSchema>;
