import {
  ApplicationFailure,
  CancellationScope,
  executeChild,
  isCancellation,
  patched,
  setCurrentDetails,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { AdmissionDecision, CatalogEntry, LeadBatch, LeadModelTurn, LeadRunInput, LeadRunState, TaskState, ToolCall, ToolOutcome } from '../contracts';
import { boundText } from '../contracts/bounded-text';
import { addUsage } from '../contracts/add-usage';
import { finishedTask } from '../contracts/finished-task';
import { SA_BATCH_ID, SA_RUN_STATUS, SA_STOP_REASONS, SA_SUBAGENTS, SA_USER_ID } from '../contracts/search-attributes';
import { BATCH_TASK_TOOL_NAME, TASK_TOOL_NAME } from '../contracts/tool-names';
import { lead } from './activity-proxies';
import { batchWorkflowId } from './batch-messages';
import { batchWorkflow } from './batch-workflow';
import { failureMessage } from './classify-activity-failure';
import { applyDelegationLimit, SUBAGENT_LIMIT_NOTE } from './delegation-limit';
import { inputSchemas } from './input-schemas';
import { leadRunStateQuery } from './lead-run-messages';
import { WORKFLOW_PATCHES } from './patches';
import { progressDetails } from './progress-details';
import { applyDecision, runTaskWithSafetyNet, type TaskContext } from './run-task';
import { capacityRejected, type TerminalDecision } from './task-outcome';
import { validateTaskCall } from './validate-task-call';

/**
 * One lead run: model step, then every `task` call of that step as a parallel `runSubagent`
 * activity, then the next model step with the outcomes, until the model answers without tool
 * calls. History carries ids, statuses, usage and bounded briefs; transcripts stay in the store.
 */
export async function leadRunWorkflow(rawInput: LeadRunInput): Promise<LeadRunState> {
  const parsed = inputSchemas.leadRun().safeParse(rawInput);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(input)'}: ${i.message}`).join('; ');
    throw ApplicationFailure.nonRetryable(`Invalid lead run input: ${problems}`, 'InvalidInput');
  }
  const input = parsed.data;
  const state: LeadRunState = {
    runId: input.runId,
    threadId: input.threadId,
    status: 'running',
    turn: 0,
    tasks: [],
    batches: [],
    strippedTaskCalls: 0,
    delegatedTaskCalls: 0,
    stopReason: null,
    leadUsage: null,
    finalMessageRef: null,
    finalMessageBrief: null,
    error: null,
  };
  setHandler(leadRunStateQuery, () => state);
  upsertSearchAttributes([{ key: SA_RUN_STATUS, value: 'running' }]);

  try {
    await runLoop(input, state);
  } catch (err) {
    state.status = isCancellation(err) ? 'cancelled' : 'failed';
    state.error = failureMessage(err);
    upsertSearchAttributes([{ key: SA_RUN_STATUS, value: state.status }]);
    throw err;
  }
  upsertSearchAttributes([{ key: SA_RUN_STATUS, value: state.status }]);
  setCurrentDetails(progressDetails(state));
  return state;
}

async function runLoop(input: LeadRunInput, state: LeadRunState): Promise<void> {
  let toolOutcomes: ToolOutcome[] = [];
  for (let turn = 0; turn < input.limits.maxLeadTurns; turn++) {
    state.turn = turn;
    setCurrentDetails(progressDetails(state));
    let step = await lead.leadModelStep({
      threadId: input.threadId,
      runId: input.runId,
      userId: input.userId,
      agentName: input.agentName,
      modelName: input.modelName,
      turn,
      message: turn === 0 ? input.message : null,
      toolOutcomes,
      limits: input.limits,
      catalog: input.catalog,
    });
    state.leadUsage = addUsage(state.leadUsage, step.usage);
    step = await enforceDelegationLimit(input, state, step, turn);
    if (step.toolCalls.length === 0) {
      state.status = 'completed';
      state.finalMessageRef = step.messageRef;
      state.finalMessageBrief = step.contentBrief;
      return;
    }
    toolOutcomes = await runToolCalls(input, state, step.toolCalls, turn);
  }
  state.status = 'failed';
  state.stopReason = 'turn_capped';
  state.error = `Lead reached max_turns=${input.limits.maxLeadTurns} without a final answer`;
}

/**
 * Applies the per-response and per-run delegation limit to one lead response (SPEC §6.1): the
 * decision is the pure {@link applyDelegationLimit}; the stored message is rewritten to match it.
 */
async function enforceDelegationLimit(input: LeadRunInput, state: LeadRunState, step: LeadModelTurn, turn: number): Promise<LeadModelTurn> {
  const limits = { maxConcurrent: step.maxConcurrent ?? input.limits.maxConcurrent, maxTotal: input.limits.maxTotal };
  const decision = applyDelegationLimit(step.toolCalls, limits, state.delegatedTaskCalls);
  let kept = step;
  if (decision !== null && patched(WORKFLOW_PATCHES.delegationLimit)) {
    kept = await lead.rewriteLeadTurn({
      threadId: input.threadId,
      runId: input.runId,
      turn,
      modelName: input.modelName,
      keptToolCallIds: [...decision.keptToolCallIds],
      note: decision.limitReached ? SUBAGENT_LIMIT_NOTE : null,
    });
    state.strippedTaskCalls += decision.droppedTaskCallIds.length;
    if (decision.limitReached) state.stopReason = 'subagent_limit_capped';
  }
  state.delegatedTaskCalls += kept.toolCalls.filter((call) => call.name === TASK_TOOL_NAME).length;
  return kept;
}

type CheckedCall =
  | { readonly call: ToolCall; readonly error: string }
  | { readonly call: ToolCall; readonly batch: true }
  | { readonly call: ToolCall; readonly subagent: CatalogEntry; readonly description: string };

/** Every tool call of one response: invalid ones answered at once, valid tasks admitted and run in parallel. */
async function runToolCalls(input: LeadRunInput, state: LeadRunState, calls: readonly ToolCall[], turn: number): Promise<ToolOutcome[]> {
  // Runs recorded before batches existed answered `batch_task` as an unknown tool.
  const batchTask = calls.some((call) => call.name === BATCH_TASK_TOOL_NAME) && patched(WORKFLOW_PATCHES.batchTask);
  const checked: CheckedCall[] = calls.map((call) => {
    if (call.name === BATCH_TASK_TOOL_NAME && batchTask) return { call, batch: true };
    if (call.name !== TASK_TOOL_NAME) return { call, error: `Unknown tool '${call.name}'. Available: ${TASK_TOOL_NAME}` };
    const check = validateTaskCall(call, input.catalog, input);
    return check.ok ? { call, subagent: check.subagent, description: check.description } : { call, error: check.error };
  });
  const taskCount = checked.filter((c) => 'subagent' in c).length;
  // Runs recorded before admission existed scheduled every task directly.
  const admission: AdmissionDecision | null =
    taskCount > 0 && patched(WORKFLOW_PATCHES.admission) ? await lead.admitSubagents({ requested: taskCount }) : null;
  const ctx: TaskContext = { input, state, admission };
  let admitted = 0;
  return Promise.all(
    checked.map((c): Promise<ToolOutcome> | ToolOutcome => {
      if ('batch' in c) return runLeadBatch(input, state, c.call, turn);
      if (!('subagent' in c)) return { kind: 'error', toolCallId: c.call.id, toolName: c.call.name, error: c.error };
      const task = newTask(c.call.id, turn, c.subagent.name, c.description);
      state.tasks.push(task);
      const refused = admission !== null && admitted++ >= admission.admitted;
      return runAndFinishTask(ctx, task, c.subagent, refused ? capacityRejected(admission.rejection ?? admission.capacityMessage) : null);
    }),
  );
}

/**
 * One `batch_task` call: the batch is validated and stored by an activity, then runs as a child
 * `batchWorkflow` (cancelled with the run). Its items never count toward the run's `task` budget.
 */
async function runLeadBatch(input: LeadRunInput, state: LeadRunState, call: ToolCall, turn: number): Promise<ToolOutcome> {
  const error = (message: string): ToolOutcome => ({ kind: 'error', toolCallId: call.id, toolName: BATCH_TASK_TOOL_NAME, error: message });
  const prepared = await lead.prepareLeadBatch({
    threadId: input.threadId,
    runId: input.runId,
    userId: input.userId,
    turn,
    toolCallId: call.id,
    modelName: input.modelName,
    catalog: input.catalog,
  });
  if (!prepared.ok) return error(prepared.error);
  const { runtime } = prepared.batch;
  const batch: LeadBatch = {
    toolCallId: call.id,
    batchId: runtime.batchId,
    ownerId: runtime.ownerId,
    status: 'running',
    counts: { pending: prepared.batch.itemCount, running: 0, completed: 0, failed: 0, cancelled: 0, timed_out: 0 },
  };
  state.batches.push(batch);
  setCurrentDetails(progressDetails(state));
  try {
    const final = await executeChild(batchWorkflow, {
      workflowId: batchWorkflowId(runtime.batchId),
      args: [prepared.batch],
      staticSummary: boundText(`batch of ${prepared.batch.itemCount} from ${input.runId}: ${prepared.batch.title}`, 200),
      typedSearchAttributes: [
        { key: SA_BATCH_ID, value: runtime.batchId },
        { key: SA_USER_ID, value: runtime.ownerId },
      ],
    });
    batch.status = final.status;
    batch.counts = final.counts;
  } catch (err) {
    if (isCancellation(err)) throw err;
    batch.status = 'failed';
    return error(`Batch ${runtime.batchId} failed: ${failureMessage(err)}`);
  }
  setCurrentDetails(progressDetails(state));
  return { kind: 'batch', toolCallId: call.id, batch: { ...batch, counts: { ...batch.counts } } };
}

function newTask(taskId: string, turn: number, subagent: string, description: string): TaskState {
  return {
    taskId,
    turn,
    subagent,
    description,
    status: 'pending',
    stopReason: null,
    modelName: null,
    usage: null,
    resultBrief: null,
    resultSha256: null,
    resultRef: null,
    error: null,
    errorCode: null,
    attempts: 0,
    evidence: null,
  };
}

/** Runs one task (unless admission already refused it), then records its single terminal event. */
async function runAndFinishTask(ctx: TaskContext, task: TaskState, subagent: CatalogEntry, refusal: TerminalDecision | null): Promise<ToolOutcome> {
  const { input, state } = ctx;
  const decision = refusal ?? (await runTaskWithSafetyNet(ctx, task, subagent));
  applyDecision(task, decision);
  setCurrentDetails(progressDetails(state));
  // The terminal event must be written even when the run is being cancelled.
  await CancellationScope.nonCancellable(() => lead.recordTaskEnd({ threadId: input.threadId, runId: input.runId, task: finishedTask(task) }));
  upsertSearchAttributes([
    { key: SA_SUBAGENTS, value: unique(state.tasks.map((t) => t.subagent)) },
    { key: SA_STOP_REASONS, value: unique(state.tasks.flatMap((t) => (t.stopReason ? [t.stopReason] : []))) },
  ]);
  return { kind: 'subagent', toolCallId: task.taskId, task: finishedTask(task) };
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
