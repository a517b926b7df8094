import { z } from 'zod';
import { RunStatusSchema, RunStopReasonSchema, StopReasonSchema, WireStatusSchema } from './status';
import { BatchItemCountsSchema } from './batches';
import type { SubagentProgress } from './subagent-progress';
import { TokenUsageSchema } from './usage';

const id = z.string().trim().min(1);

/** One delegable subagent as resolved when the run started (the run never re-reads config). */
export const CatalogEntrySchema = z.object({
  name: id,
  timeoutSeconds: z.number().int().positive(),
  maxTurns: z.number().int().positive(),
});
export type CatalogEntry = z.infer<typeof CatalogEntrySchema>;

const fraction = z.number().min(0).max(1);

/** The lead's token budget over one run (SPEC §6.2 fields of `TokenBudgetConfig`, enabled). */
export const LeadTokenBudgetSchema = z.object({
  enabled: z.literal(true),
  max_tokens: z.number().int().positive(),
  max_input_tokens: z.number().int().positive().nullable(),
  max_output_tokens: z.number().int().positive().nullable(),
  warn_threshold: fraction,
  hard_stop_threshold: fraction,
});
export type LeadTokenBudget = z.infer<typeof LeadTokenBudgetSchema>;

/** Loop detection over the lead's responses (SPEC §6.3 fields of `LoopDetectionConfig`). */
export const LeadLoopLimitsSchema = z.object({
  warn_threshold: z.number().int().positive(),
  hard_limit: z.number().int().positive(),
  window_size: z.number().int().positive(),
  tool_freq_warn: z.number().int().positive(),
  tool_freq_hard_limit: z.number().int().positive(),
  tool_freq_overrides: z.record(z.string(), z.object({ warn: z.number().int().positive(), hard_limit: z.number().int().positive() })),
});
export type LeadLoopLimits = z.infer<typeof LeadLoopLimitsSchema>;

/** Limits resolved once when the run starts. */
export const RunLimitsSchema = z.object({
  /** Per-response `task` calls (min(request, max_running, 64), at least 1). */
  maxConcurrent: z.number().int().min(1).max(64),
  /** `task` calls over the whole run. */
  maxTotal: z.number().int().min(1).max(50),
  /** Lead model turns before the run stops. */
  maxLeadTurns: z.number().int().min(1),
  /** Admission wait for a subagent slot before the task fails. */
  queueTimeoutSeconds: z.number().int().positive(),
  /** Safety net beyond a task's timeout, counted from dispatch: then the task ends `polling_timed_out`. */
  pollingGraceSeconds: z.number().int().positive().default(60),
  /** A subagent's lease expires after this long without a heartbeat (lost worker): it runs again. */
  heartbeatTimeoutSeconds: z.number().int().positive().default(30),
  /** Executions of one task when a worker is lost mid-task. */
  maxTaskAttempts: z.number().int().min(1).max(10),
  /** Start-to-close timeout of one lead tool call (`lead_tools.timeout_seconds`). */
  leadToolTimeoutSeconds: z.number().int().positive().default(300),
  /** A lead tool call's worker is lost after this long without a heartbeat. */
  leadToolHeartbeatTimeoutSeconds: z.number().int().positive().default(30),
  /** The lead's token budget over the run; null = none (and in runs recorded before lead guards). */
  leadTokenBudget: LeadTokenBudgetSchema.nullable().default(null),
  /** Loop detection over the lead's responses; null = off. */
  leadLoopDetection: LeadLoopLimitsSchema.nullable().default(null),
  /** The run continues as new once its history reaches this many events (or Temporal suggests it). */
  historyEventLimit: z.number().int().min(100).default(10_000),
  /** How long the run waits for the answer to an `ask_clarification` question; then `needs_input`. */
  clarificationTimeoutSeconds: z.number().int().positive().default(86_400),
  /** How far `extendTask` may move one task's deadline, in total (0 in runs recorded before it). */
  maxTaskExtensionSeconds: z.number().int().nonnegative().default(0),
});
export type RunLimits = z.infer<typeof RunLimitsSchema>;

/** How a lead run's model steps run: regular activities, or local activities inside the workflow task. */
export const ModelStepsSchema = z.enum(['activity', 'local']);
export type ModelSteps = z.infer<typeof ModelStepsSchema>;

/** Input of `leadRunWorkflow`: a snapshot taken when the run starts. */
export const LeadRunInputSchema = z.object({
  threadId: id,
  runId: id,
  userId: id,
  agentName: id,
  modelName: id,
  /** The user's message that opens this run. */
  message: z.string().min(1),
  limits: RunLimitsSchema,
  /** Caller policy snapshot: null = all subagents, [] = none, list = allowlist. */
  allowedSubagents: z.array(id).nullable(),
  /** Whether this deployment allows host bash (decides the `bash` subagent's error message). */
  hostBashAllowed: z.boolean().default(true),
  /** The lead agent's skills snapshot (SPEC §1.6 `available_skills`): null = all, [] = none. */
  availableSkills: z.array(z.string()).nullable().default(null),
  /** Subagents this run may delegate to, already filtered by policy and host capabilities. */
  catalog: z.array(CatalogEntrySchema),
  /** The lead's own tools (workspace tools, `web_fetch`), resolved when the run started. */
  leadTools: z.array(id).default([]),
  /** How the lead's model steps run (`lead_runs.model_steps`); runs started before it: `activity`. */
  modelSteps: ModelStepsSchema.default('activity'),
  /** Set when the run continued as new: where it stands (absent on a run's first execution). */
  resume: z.lazy(() => LeadRunResumeSchema).optional(),
});
export type LeadRunInput = z.infer<typeof LeadRunInputSchema>;

/** Most flagged lines an evidence summary carries (history stays bounded). */
export const EVIDENCE_MAX_FLAGGED = 20;
/** Longest flagged line of an evidence summary. */
export const EVIDENCE_FLAGGED_MAX_CHARS = 200;

/**
 * The advisory check of a subagent's report against its tool receipts (SPEC Appendix C.4): how many
 * receipts the run produced, citation verdicts, and short lines naming what was flagged.
 */
export const SubagentEvidenceSchema = z.object({
  receipts: z.number().int().nonnegative(),
  verdicts: z.object({
    verified: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative(),
    unknown: z.number().int().nonnegative(),
    unverified: z.number().int().nonnegative(),
  }),
  flagged: z.array(z.string().max(EVIDENCE_FLAGGED_MAX_CHARS)).max(EVIDENCE_MAX_FLAGGED),
});
export type SubagentEvidence = z.infer<typeof SubagentEvidenceSchema>;

/** What one `runSubagent` execution reports. Timeouts are decided by the workflow, not here. */
export const SubagentExecutionResultSchema = z.object({
  taskId: id,
  attempt: z.number().int().min(1),
  status: z.enum(['completed', 'failed', 'cancelled']),
  stopReason: StopReasonSchema.nullable(),
  resultBrief: z.string().nullable(),
  resultSha256: z.string().nullable(),
  /** Store key of the full result text. */
  resultRef: z.string().nullable(),
  error: z.string().nullable(),
  modelName: z.string(),
  usage: TokenUsageSchema.nullable(),
  steps: z.number().int().nonnegative(),
  /** Steps this execution took over from an earlier attempt's checkpoint (0: it started fresh). */
  resumedSteps: z.number().int().nonnegative().optional(),
  /**
   * Receipt check of the report; null when receipts are off or the snapshot was unusable (fail
   * closed). Absent in results recorded before receipts existed, so it is optional.
   */
  evidence: SubagentEvidenceSchema.nullable().optional(),
});
export type SubagentExecutionResult = z.infer<typeof SubagentExecutionResultSchema>;

/** Why a task failed before any model call: no subagent slot (rejected, or waited too long). */
export const TASK_ERROR_CODES = ['capacity_rejected', 'capacity_timeout'] as const;
export const TaskErrorCodeSchema = z.enum(TASK_ERROR_CODES);
export type TaskErrorCode = z.infer<typeof TaskErrorCodeSchema>;

export const TaskPhaseSchema = z.enum(['pending', 'running', ...WireStatusSchema.options]);
export type TaskPhase = z.infer<typeof TaskPhaseSchema>;

/** One delegated task as the workflow tracks it (query `state`, run result). */
export const TaskStateSchema = z.object({
  taskId: id,
  turn: z.number().int().nonnegative(),
  subagent: z.string(),
  description: z.string(),
  status: TaskPhaseSchema,
  stopReason: StopReasonSchema.nullable(),
  modelName: z.string().nullable(),
  usage: TokenUsageSchema.nullable(),
  resultBrief: z.string().nullable(),
  resultSha256: z.string().nullable(),
  resultRef: z.string().nullable(),
  error: z.string().nullable(),
  /** Set when the task never reached a model for lack of capacity (batches do not count these as attempts). */
  errorCode: TaskErrorCodeSchema.nullable().default(null),
  attempts: z.number().int().nonnegative(),
  /** The last execution's receipt check (advisory; never changes the status). */
  evidence: SubagentEvidenceSchema.nullable().default(null),
  /** Seconds `extendTask` added to the task's timeout so far. */
  extendedSeconds: z.number().int().nonnegative().default(0),
  /** Steps the last execution resumed from an earlier attempt instead of running them again. */
  resumedSteps: z.number().int().nonnegative().optional(),
});
export type TaskState = z.infer<typeof TaskStateSchema>;

/**
 * A finished task as activities receive it: everything but the result brief, since activities read
 * the full result by reference (keeps each brief in history once, not once per activity).
 */
export const FinishedTaskSchema = TaskStateSchema.omit({ resultBrief: true });
export type FinishedTask = z.infer<typeof FinishedTaskSchema>;

export { finishedTask } from './finished-task';

/** A `batch_task` call of a lead run and where its batch stands (query `state`, tool outcome). */
export const LeadBatchSchema = z.object({
  toolCallId: id,
  batchId: id,
  ownerId: id,
  status: z.enum(['running', 'completed', 'cancelled', 'failed']),
  counts: BatchItemCountsSchema,
});
export type LeadBatch = z.infer<typeof LeadBatchSchema>;

/** How one tool call of the previous lead turn ended; the next model step writes it as a tool message. */
export const ToolOutcomeSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('subagent'),
    toolCallId: id,
    task: FinishedTaskSchema,
    /**
     * The run heard nothing of what the task's ending execution spent (a cancelled execution reports
     * nothing: the run stops waiting for it at once): the writer takes it from the progress store,
     * where the execution left it before its last model or tool call, and returns it to the run.
     */
    spendInStore: z.literal(true).optional(),
  }),
  z.object({ kind: z.literal('batch'), toolCallId: id, batch: LeadBatchSchema }),
  z.object({ kind: z.literal('error'), toolCallId: id, toolName: z.string(), error: z.string() }),
  /** A lead tool call that ended without answering itself (timed out, worker lost). */
  z.object({ kind: z.literal('leadTool'), toolCallId: id, toolName: z.string(), status: z.enum(['failed', 'cancelled']), error: z.string() }),
]);
export type ToolOutcome = z.infer<typeof ToolOutcomeSchema>;

/** One call's outcome: the id the run gave the call keys its tool message (and a task's `subagent.end`). */
export const CallOutcomeSchema = z.object({ callId: id, outcome: ToolOutcomeSchema });
export type CallOutcome = z.infer<typeof CallOutcomeSchema>;

/**
 * Input of the `recordToolOutcome` activity: the outcomes that became known together (in one
 * workflow activation, or while the previous write was in flight), or, from runs recorded before
 * outcomes were written in bursts, one call's.
 */
export const RecordToolOutcomeInputSchema = z.union([
  z.object({ threadId: id, runId: id, outcomes: z.array(CallOutcomeSchema).min(1) }),
  z.object({ threadId: id, runId: id, ...CallOutcomeSchema.shape }),
]);
export type RecordToolOutcomeInput = z.infer<typeof RecordToolOutcomeInputSchema>;

/** What `recordToolOutcome` read for the run: the stored spend of each outcome marked `spendInStore` that had one. */
export interface RecordToolOutcomeResult {
  readonly spent: readonly { readonly callId: string; readonly progress: SubagentProgress }[];
}

/** A lead tool call as the run knows it: its own id, the stored message's id, the tool. */
export const LeadCallRefSchema = z.object({ callId: id, toolCallId: id, toolName: z.string() });
export type LeadCallRef = z.infer<typeof LeadCallRefSchema>;

/**
 * Input of the `closeToolCalls` activity: calls of the run that will never get their outcome get a
 * closing tool message (`text`), so the thread holds no dangling tool call.
 */
export const CloseToolCallsInputSchema = z.object({
  threadId: id,
  runId: id,
  calls: z.array(LeadCallRefSchema),
  /** A model step the run never saw the end of: every unanswered call of its stored message is closed too. */
  unseenTurn: z.number().int().nonnegative().nullable(),
  /** `cancelled`, or `not run: <reason>`. */
  text: z.string().min(1),
});
export type CloseToolCallsInput = z.infer<typeof CloseToolCallsInputSchema>;

/** Input of the `runLeadTool` activity: one of the lead's own tool calls (arguments read from the stored message). */
export const LeadToolCallInputSchema = z.object({
  threadId: id,
  runId: id,
  userId: id,
  turn: z.number().int().nonnegative(),
  callId: id,
  toolCallId: id,
  toolName: id,
  /** The run's lead tools: a call outside them is refused even if the message names it. */
  allowedTools: z.array(id),
  /** Deferred tools the run promoted before this call's response: a call to another deferred one is refused. */
  promotedTools: z.array(id).default([]),
});
export type LeadToolCallInput = z.infer<typeof LeadToolCallInputSchema>;

/** What one lead tool call returned; the full output is its tool message in the store. */
export const LeadToolResultSchema = z.object({
  callId: id,
  status: z.enum(['completed', 'failed']),
  /** Bounded head and tail of the output (<= 2000 chars). */
  outputBrief: z.string(),
  error: z.string().nullable(),
  /** The deferred tools a `tool_search` call promoted (absent for other tools and in older runs). */
  promotedTools: z.array(id).optional(),
});
export type LeadToolResult = z.infer<typeof LeadToolResultSchema>;

/** One of the lead's own tool calls as the run tracks it (query `state`, `deerflow run --json` `lead_tools`). */
export const LeadToolStateSchema = z.object({
  callId: id,
  turn: z.number().int().nonnegative(),
  tool: z.string(),
  status: z.enum(['running', 'completed', 'failed', 'cancelled']),
  error: z.string().nullable(),
});
export type LeadToolState = z.infer<typeof LeadToolStateSchema>;

/** Input of the `leadModelStep` activity. */
export const LeadModelStepInputSchema = z.object({
  threadId: id,
  runId: id,
  userId: id,
  agentName: id,
  modelName: id,
  turn: z.number().int().nonnegative(),
  /** The opening user message; written to the thread on turn 0 only. */
  message: z.string().nullable(),
  /** Outcomes of the previous turn's tool calls, written to the thread before the model is called. */
  toolOutcomes: z.array(ToolOutcomeSchema),
  limits: RunLimitsSchema,
  catalog: z.array(CatalogEntrySchema),
  /** The lead's own tools bound for this step ([] in runs recorded before the lead had tools). */
  leadTools: z.array(id).default([]),
  /** Whether `ask_clarification` is bound (runs recorded before it existed did not have it). */
  clarification: z.boolean().default(false),
  /** Deferred tools the run promoted so far: bound for this step like the lead's other tools. */
  promotedTools: z.array(id).default([]),
  /** Guard warnings for this request only (never stored): loop and token-budget warnings. */
  warnings: z.array(z.object({ name: z.enum(['loop_warning', 'budget_warning']), text: z.string().min(1) })).default([]),
  /** Whether the step returns the `admission` snapshot with a response that has `task` calls (runs recorded before it did not ask). */
  admissionSnapshot: z.boolean().default(false),
});
export type LeadModelStepInput = z.infer<typeof LeadModelStepInputSchema>;

/**
 * Input of the `leadModelStepWithOutcomes` activity: a model step that first writes the outcomes
 * of the previous response's last calls, as `recordToolOutcome` would (none of them waits on
 * stored spend). An activity of its own name, not a field of `leadModelStep`: a worker from before
 * it cannot run it, where it would drop an unknown field and call the model without those results.
 */
export const LeadModelStepWithOutcomesInputSchema = LeadModelStepInputSchema.extend({
  outcomes: z
    .array(CallOutcomeSchema)
    .min(1)
    // Stored spend goes back to the run, which a model step's result does not carry.
    .refine((outcomes) => outcomes.every(({ outcome }) => outcome.kind !== 'subagent' || outcome.spendInStore !== true), {
      message: 'an outcome that takes its spend from the store is written by recordToolOutcome',
    }),
});
export type LeadModelStepWithOutcomesInput = z.infer<typeof LeadModelStepWithOutcomesInputSchema>;

/** Input of the `rewriteLeadTurn` activity: the delegation-limit decision for one stored lead message. */
export const RewriteLeadTurnInputSchema = z.object({
  threadId: id,
  runId: id,
  turn: z.number().int().nonnegative(),
  modelName: id,
  keptToolCallIds: z.array(id),
  /** Appended to the message content when the run's delegation budget is used up. */
  note: z.string().nullable(),
});
export type RewriteLeadTurnInput = z.infer<typeof RewriteLeadTurnInputSchema>;

/** Input of the `prepareLeadBatch` activity: one `batch_task` call of a stored lead turn. */
export const PrepareLeadBatchInputSchema = z.object({
  threadId: id,
  runId: id,
  userId: id,
  turn: z.number().int().nonnegative(),
  toolCallId: id,
  /** The id the run gave the call: with the thread and run, it names the batch. Absent in older runs. */
  callId: id.optional(),
  modelName: id,
  catalog: z.array(CatalogEntrySchema),
  /** The lead run's skills snapshot: the batch's items get no more than the run's own tasks. */
  availableSkills: z.array(z.string()).nullable().default(null),
});
export type PrepareLeadBatchInput = z.infer<typeof PrepareLeadBatchInputSchema>;

/** Input of the `admitSubagents` activity: how many tasks one lead response wants to start. */
export const AdmissionRequestSchema = z.object({ requested: z.number().int().min(1) });
export type AdmissionRequest = z.infer<typeof AdmissionRequestSchema>;

/** The admission decision, made with the deciding worker's startup `subagent_runtime` (SPEC C.1). */
export const AdmissionDecisionSchema = z.object({
  policy: z.enum(['queue', 'reject']),
  /** The first `admitted` tasks may be scheduled; the rest fail with `rejection`. */
  admitted: z.number().int().nonnegative(),
  rejection: z.string().nullable(),
  /** How long an admitted task may wait for a slot: the queue timeout, or a short dispatch grace under `reject`. */
  scheduleToStartSeconds: z.number().int().positive(),
  /** The capacity-full text for a task that finds no slot within a `reject` dispatch grace. */
  capacityMessage: z.string(),
});
export type AdmissionDecision = z.infer<typeof AdmissionDecisionSchema>;

/** Input of the `recordEvents` activity: the single terminal event of a task, decided by the workflow. */
export const TaskEndEventInputSchema = z.object({
  threadId: id,
  runId: id,
  task: FinishedTaskSchema,
});
export type TaskEndEventInput = z.infer<typeof TaskEndEventInputSchema>;

/** Live state of a lead run (query `state`) and, once it ends, its result. */
export const LeadRunStateSchema = z.object({
  runId: id,
  threadId: id,
  status: z.union([z.literal('running'), RunStatusSchema]),
  turn: z.number().int().nonnegative(),
  tasks: z.array(TaskStateSchema),
  /** Batches this run started with `batch_task` (absent in runs recorded before batches existed). */
  batches: z.array(LeadBatchSchema).default([]),
  /** The lead's own tool calls, in order (absent in runs recorded before the lead had tools). */
  leadTools: z.array(LeadToolStateSchema).default([]),
  /** The question the run is waiting on (`ask_clarification`), or null. */
  question: z.object({ callId: id, text: z.string() }).nullable().default(null),
  /** Deferred tools `tool_search` promoted in this run, in promotion order (bound from the next model step on). */
  promotedTools: z.array(id).default([]),
  strippedTaskCalls: z.number().int().nonnegative(),
  /** `task` calls this run made that the limit kept (its delegation ledger count). */
  delegatedTaskCalls: z.number().int().nonnegative(),
  stopReason: RunStopReasonSchema.nullable(),
  leadUsage: TokenUsageSchema.nullable(),
  finalMessageRef: z.string().nullable(),
  finalMessageBrief: z.string().nullable(),
  error: z.string().nullable(),
});
export type LeadRunState = z.infer<typeof LeadRunStateSchema>;

/** What the lead's guards remember over a run (carried across continue-as-new). */
export const LeadGuardMemorySchema = z.object({
  loop: z.object({
    hashes: z.array(z.string()),
    warnedHashes: z.array(z.string()),
    toolNames: z.array(z.string()),
    warnedTools: z.array(z.string()),
  }),
  budgetWarned: z.boolean(),
  pending: z.array(z.object({ name: z.enum(['loop_warning', 'budget_warning']), text: z.string() })),
});
export type LeadGuardMemory = z.infer<typeof LeadGuardMemorySchema>;

/** Where a lead run stands when it continues as new: its next turn, its whole state, its guards. */
export const LeadRunResumeSchema = z.object({
  turn: z.number().int().nonnegative(),
  state: LeadRunStateSchema,
  guards: LeadGuardMemorySchema,
  /** Executions before this one (Temporal Web shows each as its own run). */
  continuedRuns: z.number().int().min(1),
});
export type LeadRunResume = z.infer<typeof LeadRunResumeSchema>;

/** Update `cancelTask`: cancel one running task of a lead run; the run and its other tasks go on. */
export const CancelTaskRequestSchema = z.strictObject({ taskId: id });
export type CancelTaskRequest = z.infer<typeof CancelTaskRequestSchema>;

/** How the cancelled task ended (`cancelled`, or what it reached first). */
export const CancelTaskResultSchema = z.object({ taskId: id, status: WireStatusSchema });
export type CancelTaskResult = z.infer<typeof CancelTaskResultSchema>;

/** Update `answerClarification`: the user's answer to the question the run is waiting on. */
export const AnswerClarificationRequestSchema = z.strictObject({ answer: z.string().trim().min(1, 'must not be empty') });
export type AnswerClarificationRequest = z.infer<typeof AnswerClarificationRequestSchema>;

/** What the run did with an answer: it goes on with it as the user's next message. */
export const AnswerClarificationResultSchema = z.object({ callId: id, question: z.string() });
export type AnswerClarificationResult = z.infer<typeof AnswerClarificationResultSchema>;

/** Input of the `recordClarification` activity: a question asked, answered, or left unanswered. */
export const RecordClarificationInputSchema = z.discriminatedUnion('phase', [
  z.object({ phase: z.literal('asked'), threadId: id, runId: id, callId: id, toolCallId: id, question: z.string() }),
  z.object({ phase: z.literal('answered'), threadId: id, runId: id, callId: id, question: z.string(), answer: z.string() }),
  z.object({ phase: z.literal('timed_out'), threadId: id, runId: id, callId: id, question: z.string(), waitedSeconds: z.number().int().positive() }),
]);
export type RecordClarificationInput = z.infer<typeof RecordClarificationInputSchema>;

/** Update `extendTask`: move one running task's deadline (and its safety net) by `seconds`. */
export const ExtendTaskRequestSchema = z.strictObject({ taskId: id, seconds: z.number().int('must be a whole number of seconds').min(1, 'must be at least 1') });
export type ExtendTaskRequest = z.infer<typeof ExtendTaskRequestSchema>;

/** The task's deadline after an extension: its timeout now, and how much was added in total. */
export const ExtendTaskResultSchema = z.object({ taskId: id, timeoutSeconds: z.number().int().positive(), extendedSeconds: z.number().int().nonnegative() });
export type ExtendTaskResult = z.infer<typeof ExtendTaskResultSchema>;
