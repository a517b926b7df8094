import type {
  AdmissionDecision,
  AdmissionRequest,
  LeadModelStepInput,
  LeadModelTurn,
  PrepareLeadBatchInput,
  RewriteLeadTurnInput,
  SubagentExecutionResult,
  SubagentTaskInput,
  TaskEndEventInput,
} from '../contracts';

import type { PreparedLeadBatch } from './prepare-lead-batch';

/** Activities on the `deerflow` task queue. Workflows import this file as types only. */
export interface LeadActivities {
  /** One lead model call: writes pending tool messages, calls the model, stores the AI message. */
  leadModelStep(input: LeadModelStepInput): Promise<LeadModelTurn>;
  /** Decides which of a response's tasks may be scheduled, given the subagent queue (SPEC C.1). */
  admitSubagents(input: AdmissionRequest): Promise<AdmissionDecision>;
  /** Applies the workflow's delegation-limit decision to a stored lead message. */
  rewriteLeadTurn(input: RewriteLeadTurnInput): Promise<LeadModelTurn>;
  /** Validates and stores the batch of a `batch_task` call; returns its workflow input or the error for the lead. */
  prepareLeadBatch(input: PrepareLeadBatchInput): Promise<PreparedLeadBatch>;
  /** Writes the single terminal `subagent.end` row of a task, as decided by the workflow. */
  recordTaskEnd(input: TaskEndEventInput): Promise<void>;
}

/** Batch bookkeeping activities, also on the `deerflow` task queue. */
export type { BatchActivities } from './batch-items';

/** Activities on the `deerflow-subagents` task queue. */
export interface SubagentActivities {
  /** Runs one subagent execution to its end; heartbeats while it runs. */
  runSubagent(input: SubagentTaskInput): Promise<SubagentExecutionResult>;
}
