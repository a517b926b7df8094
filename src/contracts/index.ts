/**
 * Wire contracts: zod schemas, their types and constants shared by workflows, activities, clients
 * and the CLI. Nothing here imports other project folders, so workflow code may import it.
 */
export {
  SubagentStatus,
  WIRE_STATUSES,
  WireStatusSchema,
  STOP_REASONS,
  StopReasonSchema,
  RUN_STOP_REASONS,
  RunStopReasonSchema,
  RUN_STATUSES,
  RunStatusSchema,
  STOP_REASON_LABELS,
  isTerminalStatus,
} from './status';
export type { WireStatus, StopReason, RunStopReason, RunStatus } from './status';
export { TokenUsageSchema, addUsage } from './usage';
export { usageOfMessage } from './usage-of-message';
export { messageText } from './message-text';
export { SubagentProgressSchema, TaskProgressReportSchema } from './subagent-progress';
export type { SubagentProgress, TaskProgressReport } from './subagent-progress';
export { applyProgress } from './task-spend';
export type { TokenUsage } from './usage';
export { METADATA_TEXT_MAX_CHARS, boundText } from './bounded-text';
export { TaskToolArgsSchema, TASK_TOOL_NAME, BatchTaskToolArgsSchema, BATCH_TASK_TOOL_NAME, ToolSearchArgsSchema, TOOL_SEARCH_QUERY_MAX_CHARS } from './tool-args';
export { ASK_CLARIFICATION_TOOL_NAME, LEAD_TOOL_NAMES, leadCallId, TOOL_SEARCH_TOOL_NAME } from './tool-names';
export { awaitsPromotion, deferredToolRefusal, defersMcpTools, promoteTools, PROMOTED_TOOLS_KWARG } from './deferred-tools';
export type { LeadToolName } from './tool-names';
export { ToolsListOutputSchema, ToolsListServerSchema, ToolsListToolSchema } from './tools-list-output';
export type { ToolsListOutput, ToolsListServer, ToolsListTool } from './tools-list-output';
export { ReplayJsonOutputSchema, ReplayOutcomeSchema } from './replay-output';
export type { ReplayJsonOutput, ReplayOutcome } from './replay-output';
export { mcpServerPattern, toolAllowed, toolEntryMatches, toolListIncludes } from './tool-patterns';
export { isValidToolName, MCP_SERVER_NAME_PATTERN, MCP_TOOL_SEPARATOR, mcpServerOf, mcpToolName, TOOL_NAME_PATTERN } from './mcp-tool-names';
export type { TaskToolArgs, BatchTaskToolArgs, ToolSearchArgs } from './tool-args';
export { ToolCallSchema, LeadModelTurnSchema } from './messages';
export type { ToolCall, LeadModelTurn } from './messages';
export {
  CatalogEntrySchema,
  RunLimitsSchema,
  LeadTokenBudgetSchema,
  LeadLoopLimitsSchema,
  LeadRunInputSchema,
  ModelStepsSchema,
  SubagentExecutionResultSchema,
  SubagentEvidenceSchema,
  EVIDENCE_MAX_FLAGGED,
  EVIDENCE_FLAGGED_MAX_CHARS,
  TaskPhaseSchema,
  TaskErrorCodeSchema,
  TASK_ERROR_CODES,
  TaskStateSchema,
  FinishedTaskSchema,
  finishedTask,
  AdmissionRequestSchema,
  AdmissionDecisionSchema,
  ToolOutcomeSchema,
  LeadModelStepInputSchema,
  LeadModelStepWithOutcomesInputSchema,
  TaskEndEventInputSchema,
  RewriteLeadTurnInputSchema,
  LeadRunStateSchema,
  LeadBatchSchema,
  PrepareLeadBatchInputSchema,
  RecordToolOutcomeInputSchema,
  LeadCallRefSchema,
  CloseToolCallsInputSchema,
  LeadToolCallInputSchema,
  LeadToolResultSchema,
  LeadToolStateSchema,
  LeadGuardMemorySchema,
  LeadRunResumeSchema,
  CancelTaskRequestSchema,
  CancelTaskResultSchema,
  AnswerClarificationRequestSchema,
  AnswerClarificationResultSchema,
  RecordClarificationInputSchema,
  ExtendTaskRequestSchema,
  ExtendTaskResultSchema,
} from './workflow-io';
export type {
  CatalogEntry,
  RunLimits,
  LeadTokenBudget,
  LeadLoopLimits,
  LeadRunInput,
  ModelSteps,
  SubagentExecutionResult,
  SubagentEvidence,
  TaskPhase,
  TaskErrorCode,
  TaskState,
  FinishedTask,
  AdmissionRequest,
  AdmissionDecision,
  ToolOutcome,
  LeadModelStepInput,
  LeadModelStepWithOutcomesInput,
  CallOutcome,
  TaskEndEventInput,
  RewriteLeadTurnInput,
  LeadRunState,
  LeadBatch,
  PrepareLeadBatchInput,
  RecordToolOutcomeInput,
  RecordToolOutcomeResult,
  LeadCallRef,
  CloseToolCallsInput,
  LeadToolCallInput,
  LeadToolResult,
  LeadToolState,
  LeadGuardMemory,
  LeadRunResume,
  CancelTaskRequest,
  CancelTaskResult,
  AnswerClarificationRequest,
  AnswerClarificationResult,
  RecordClarificationInput,
  ExtendTaskRequest,
  ExtendTaskResult,
} from './workflow-io';
export { BatchItemRunInputSchema } from './batch-item-run';
export type { BatchItemRunInput, BatchItemRunResult, FinishedBatchItem } from './batch-item-run';
export { SubagentTaskInputSchema, LeadTaskExecutionSchema, BatchItemExecutionSchema, executionScopeOf } from './subagent-task-input';
export type { SubagentTaskInput, LeadTaskExecution, BatchItemExecution, SubagentExecutionScope } from './subagent-task-input';
export { subagentTaskWire } from './subagent-task-wire';
export type { SubagentTaskWire } from './subagent-task-wire';
export {
  SUBAGENT_EVENT_CATEGORY,
  SUBAGENT_EVENTS,
  TASK_END_EVENT,
  SubagentEventNameSchema,
  SUBAGENT_STEP_MAX_CHARS,
  StepToolCallSchema,
  SubagentStepPayloadSchema,
  SubagentStartPayloadSchema,
  SubagentEndPayloadSchema,
  LEAD_TOOL_EVENT_CATEGORY,
  LEAD_TOOL_EVENTS,
  LeadToolStartPayloadSchema,
  LeadToolEndPayloadSchema,
  CLARIFICATION_EVENT_CATEGORY,
  CLARIFICATION_EVENTS,
} from './events';
export type {
  SubagentEventName,
  SubagentStepPayload,
  SubagentStartPayload,
  SubagentEndPayload,
  LeadToolEventName,
  LeadToolStartPayload,
  LeadToolEndPayload,
  ClarificationEventName,
  RunEvent,
} from './events';
export {
  SA_THREAD_ID,
  SA_USER_ID,
  SA_AGENT,
  SA_RUN_STATUS,
  SA_STOP_REASONS,
  SA_SUBAGENTS,
  SA_BATCH_ID,
  SA_ITEMS_DONE,
  SA_ITEMS_TOTAL,
  CUSTOM_SEARCH_ATTRIBUTES,
} from './search-attributes';
export { leadRunSearchAttributes, batchSearchAttributes, missingSearchAttributes } from './identity-search-attributes';
export { WORKFLOW_TASK_QUEUE, SUBAGENT_TASK_QUEUE, BATCH_ITEM_TASK_QUEUE } from './task-queues';
export { WORKFLOW_TYPES } from './workflow-types';
export type { WorkflowType } from './workflow-types';
export {
  CONFIGURATION_ERROR_TYPE,
  TASK_DEADLINE_EXCEEDED_TYPE,
  WORKER_SHUTDOWN_TYPE,
  INVALID_INPUT_TYPE,
  BATCH_NOT_FOUND_TYPE,
  BATCH_STORE_NOT_FOUND_TYPE,
  BATCH_STORE_INVALID_TYPE,
  BATCH_LEASE_WAIT_TIMEOUT_TYPE,
  BATCH_ITEM_FENCED_TYPE,
  CANCELLED_FAILURE_NAME,
  applicationFailureOf,
  isApplicationFailureOf,
  isCancelledFailure,
} from './failure-types';
export type { FailureType } from './failure-types';
export { formatZodIssues, zodIssueLines } from './format-zod-issues';
export type { ZodIssueLike } from './format-zod-issues';
export {
  RunJsonTaskSchema,
  RunJsonLeadToolSchema,
  RunJsonOutputSchema,
  BatchJsonItemSchema,
  BatchJsonOutputSchema,
  RunSearchStatusSchema,
  RunsListEntrySchema,
  RunsListJsonOutputSchema,
  RunShowJsonOutputSchema,
} from './cli-output';
export type {
  RunJsonTask,
  RunJsonLeadTool,
  RunJsonOutput,
  BatchJsonItem,
  BatchJsonOutput,
  RunSearchStatus,
  RunsListEntry,
  RunsListJsonOutput,
  RunShowJsonOutput,
} from './cli-output';
export {
  AgentNameSchema,
  ManagedSubagentInputSchema,
  ManagedSubagentSchema,
  ManagedLeadAgentInputSchema,
  ManagedLeadAgentSchema,
} from './agent-definitions';
export type { ManagedSubagentInput, ManagedSubagent, ManagedLeadAgentInput, ManagedLeadAgent } from './agent-definitions';
export {
  BatchStatus,
  BatchStatusSchema,
  FinalBatchStatusSchema,
  BatchItemStatus,
  BatchItemStatusSchema,
  TerminalBatchItemStatusSchema,
  isTerminalBatchItemStatus,
  BatchAttemptOutcome,
  BatchAttemptOutcomeSchema,
  BATCH_ID_MAX_CHARS,
  BATCH_PROMPT_MAX_CHARS,
  DEFAULT_BATCH_MAX_RESULT_CHARS,
  DEFAULT_BATCH_RESULT_PREVIEW_MAX_CHARS,
  BATCH_LIST_MAX_LIMIT,
  BATCH_ATTEMPT_HISTORY_MAX,
  BatchItemInputSchema,
  BatchLimitsInputSchema,
  CreateBatchInputSchema,
  BatchAttemptInputSchema,
  CompleteBatchItemInputSchema,
  ListBatchItemsQuerySchema,
  BatchLimitsSchema,
  BatchItemCountsSchema,
  BatchRecordSchema,
  BatchAttemptSchema,
  BatchItemRecordSchema,
  BatchItemSummarySchema,
} from './batches';
export type {
  FinalBatchStatus,
  TerminalBatchItemStatus,
  BatchItemInput,
  BatchLimitsInput,
  CreateBatchInput,
  BatchAttemptInput,
  CompleteBatchItemInput,
  ListBatchItemsQuery,
  BatchLimits,
  BatchItemCounts,
  BatchRecord,
  BatchAttempt,
  BatchItemRecord,
  BatchItemSummary,
} from './batches';
export {
  BatchItemRuntimeSchema,
  BatchItemProgressSchema,
  BatchItemWorkflowInputSchema,
  BatchItemOutcomeSchema,
  BatchCursorSchema,
  BatchWorkflowInputSchema,
  BatchStateSchema,
  CancelBatchRequestSchema,
  CancelBatchResultSchema,
  BatchItemAttemptRecordSchema,
  NextBatchItemsInputSchema,
  BatchOfOwnerInputSchema,
  FinishBatchInputSchema,
  StartBatchItemAttemptInputSchema,
  StartedBatchItemsInputSchema,
  CancelStartedBatchItemsInputSchema,
  FinishBatchItemInputSchema,
} from './batch-workflows';
export type {
  BatchItemRuntime,
  BatchItemProgress,
  BatchItemWorkflowInput,
  BatchItemOutcome,
  BatchCursor,
  BatchWorkflowInput,
  BatchState,
  CancelBatchRequest,
  CancelBatchResult,
  BatchItemAttemptRecord,
  NextBatchItemsInput,
  BatchOfOwnerInput,
  FinishBatchInput,
  StartBatchItemAttemptInput,
  StartedBatchItemsInput,
  CancelStartedBatchItemsInput,
  FinishBatchItemInput,
} from './batch-workflows';
export { isValidThreadId, THREAD_ID_PATTERN, THREAD_OWNER_ID_MAX_CHARS, ThreadKind, ThreadKindSchema, ThreadClaimInputSchema, ThreadOwnerRecordSchema } from './thread-owners';
export type { ThreadClaimInput, ThreadOwnerRecord } from './thread-owners';
export { decideAdmission, REJECT_DISPATCH_GRACE_SECONDS } from './admission';
export { AdmissionSettingsSchema, AdmissionSnapshotSchema } from './admission-snapshot';
export type { AdmissionSettings, AdmissionSnapshot } from './admission-snapshot';
