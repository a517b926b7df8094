import {
  AdmissionRequestSchema,
  BatchItemAttemptRecordSchema,
  BatchItemRunInputSchema,
  BatchOfOwnerInputSchema,
  CancelStartedBatchItemsInputSchema,
  CloseToolCallsInputSchema,
  FinishBatchInputSchema,
  FinishBatchItemInputSchema,
  LeadModelStepInputSchema,
  LeadModelStepWithOutcomesInputSchema,
  LeadToolCallInputSchema,
  NextBatchItemsInputSchema,
  PrepareLeadBatchInputSchema,
  RecordClarificationInputSchema,
  RecordToolOutcomeInputSchema,
  RewriteLeadTurnInputSchema,
  StartBatchItemAttemptInputSchema,
  StartedBatchItemsInputSchema,
  SubagentTaskInputSchema,
  TaskEndEventInputSchema,
} from '../contracts';

/**
 * The schema each activity parses its input with, by activity name. One table for the activities
 * and for the replay test that checks every input the fixtures recorded against it: an activity a
 * run scheduled before a deploy runs on the new worker with the input older code built.
 */
export const ACTIVITY_INPUT_SCHEMAS = {
  leadModelStep: LeadModelStepInputSchema,
  leadModelStepWithOutcomes: LeadModelStepWithOutcomesInputSchema,
  admitSubagents: AdmissionRequestSchema,
  rewriteLeadTurn: RewriteLeadTurnInputSchema,
  prepareLeadBatch: PrepareLeadBatchInputSchema,
  recordTaskEnd: TaskEndEventInputSchema,
  recordToolOutcome: RecordToolOutcomeInputSchema,
  closeToolCalls: CloseToolCallsInputSchema,
  runLeadTool: LeadToolCallInputSchema,
  recordClarification: RecordClarificationInputSchema,
  runSubagent: SubagentTaskInputSchema,
  runBatchItem: BatchItemRunInputSchema,
  nextBatchItems: NextBatchItemsInputSchema,
  loadBatchProgress: BatchOfOwnerInputSchema,
  markBatchItemRunning: StartBatchItemAttemptInputSchema,
  startBatchItemAttempt: StartBatchItemAttemptInputSchema,
  recordBatchItemAttempt: BatchItemAttemptRecordSchema,
  finishBatchItem: FinishBatchItemInputSchema,
  startedBatchItems: StartedBatchItemsInputSchema,
  cancelStartedBatchItems: CancelStartedBatchItemsInputSchema,
  cancelBatchItems: BatchOfOwnerInputSchema,
  finishBatch: FinishBatchInputSchema,
} as const;

/** An activity that parses its input. */
export type ActivityName = keyof typeof ACTIVITY_INPUT_SCHEMAS;
