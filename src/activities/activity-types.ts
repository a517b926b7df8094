import type {
  AdmissionDecision,
  BatchItemRunInput,
  BatchItemRunResult,
  AdmissionRequest,
  CloseToolCallsInput,
  RecordClarificationInput,
  LeadToolCallInput,
  LeadToolResult,
  RecordToolOutcomeInput,
  RecordToolOutcomeResult,
  LeadModelStepInput,
  LeadModelStepWithOutcomesInput,
  LeadModelTurn,
  PrepareLeadBatchInput,
  RewriteLeadTurnInput,
  SubagentExecutionResult,
  SubagentTaskWire,
  TaskEndEventInput,
} from '../contracts';

import type { PreparedLeadBatch } from './prepare-lead-batch';

/** Activities on the `deerflow` task queue. Workflows import this file as types only. */
export interface LeadActivities {
  /** One lead model call: writes pending tool messages, calls the model, stores the AI message. */
  leadModelStep(input: LeadModelStepInput): Promise<LeadModelTurn>;
  /** The same step, writing the previous response's last outcomes first (what `recordToolOutcome` writes). */
  leadModelStepWithOutcomes(input: LeadModelStepWithOutcomesInput): Promise<LeadModelTurn>;
  /** Decides which of a response's tasks may be scheduled, given the subagent queue (SPEC C.1). */
  admitSubagents(input: AdmissionRequest): Promise<AdmissionDecision>;
  /** Applies the workflow's delegation-limit decision to a stored lead message. */
  rewriteLeadTurn(input: RewriteLeadTurnInput): Promise<LeadModelTurn>;
  /** Validates and stores the batch of a `batch_task` call; returns its workflow input or the error for the lead. */
  prepareLeadBatch(input: PrepareLeadBatchInput): Promise<PreparedLeadBatch>;
  /** Writes the single terminal `subagent.end` row of a task (runs recorded before `recordToolOutcome`). */
  recordTaskEnd(input: TaskEndEventInput): Promise<void>;
  /**
   * Writes one call's outcome as soon as it is known: tool message, `subagent.end` or `tool.end`.
   * Returns the stored spend it took for the run (nothing, in histories recorded before it did).
   */
  recordToolOutcome(input: RecordToolOutcomeInput): Promise<RecordToolOutcomeResult | undefined>;
  /** Closes the calls a run will never answer, so the thread holds no dangling tool call. */
  closeToolCalls(input: CloseToolCallsInput): Promise<void>;
  /** Runs one of the lead's own tool calls and writes its tool message and `tool.end`. */
  runLeadTool(input: LeadToolCallInput): Promise<LeadToolResult>;
  /** Writes a question the run asked, its answer, or that it went unanswered. */
  recordClarification(input: RecordClarificationInput): Promise<void>;
}

/** Batch bookkeeping activities, also on the `deerflow` task queue. */
export type { BatchActivities } from './batch-items';

/** Activities on the `deerflow-subagents` task queue. */
export interface SubagentActivities {
  /** Runs one subagent execution to its end; heartbeats while it runs. */
  runSubagent(input: SubagentTaskWire): Promise<SubagentExecutionResult>;
}

/** Activities on the `deerflow-batch-items` task queue. */
export interface BatchItemActivities {
  /** Runs one try of a batch item while it holds one of its batch's running leases; a completed one writes the item's end. */
  runBatchItem(input: BatchItemRunInput): Promise<BatchItemRunResult>;
}
