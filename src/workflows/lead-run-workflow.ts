import {
  ApplicationFailure,
  CancellationScope,
  isCancellation,
  patched,
  proxyActivities,
  sleep,
  setCurrentDetails,
  setHandler,
  upsertSearchAttributes,
  type ActivityOptions,
} from '@temporalio/workflow';
import type { LeadActivities, SubagentActivities } from '../activities/activity-types';
import {
  addUsage,
  boundText,
  CONFIGURATION_ERROR_TYPE,
  LeadRunInputSchema,
  SA_RUN_STATUS,
  SA_STOP_REASONS,
  SA_SUBAGENTS,
  SUBAGENT_TASK_QUEUE,
  TASK_TOOL_NAME,
  type CatalogEntry,
  type LeadModelTurn,
  type LeadRunInput,
  type LeadRunState,
  type TaskState,
  type ToolCall,
  type ToolOutcome,
} from '../contracts';
import { classifyActivityFailure, failureMessage } from './classify-activity-failure';
import { leadRunStateQuery } from './lead-run-messages';
import { progressDetails } from './progress-details';
import { applyDelegationLimit, SUBAGENT_LIMIT_NOTE } from './delegation-limit';
import { decideTaskOutcome, pollingTimedOut, type ExecutionOutcome, type TerminalDecision } from './task-outcome';
import { validateTaskCall } from './validate-task-call';

/** Patch marker of the delegation limit (runs recorded before it dispatched every `task` call). */
export const DELEGATION_LIMIT_PATCH = 'delegation-limit';

/** Patch marker of the per-task safety-net timer (`polling_timed_out`). */
export const POLLING_SAFETY_NET_PATCH = 'task-polling-safety-net';

const lead = proxyActivities<LeadActivities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '1 minute',
  retry: { maximumAttempts: 5, initialInterval: '1 second', backoffCoefficient: 2, nonRetryableErrorTypes: [CONFIGURATION_ERROR_TYPE] },
});

const subagents = proxyActivities<SubagentActivities>({
  taskQueue: SUBAGENT_TASK_QUEUE,
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '30 seconds',
  // Attempts are decided by workflow code from the outcome (see decideTaskOutcome), never blindly.
  retry: { maximumAttempts: 1 },
});

/**
 * One lead run: model step, then every `task` call of that step as a parallel `runSubagent`
 * activity, then the next model step with the outcomes, until the model answers without tool
 * calls. History carries ids, statuses, usage and bounded briefs; transcripts stay in the store.
 */
export async function leadRunWorkflow(rawInput: LeadRunInput): Promise<LeadRunState> {
  const parsed = LeadRunInputSchema.safeParse(rawInput);
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
    toolOutcomes = await Promise.all(step.toolCalls.map((call) => handleToolCall(input, state, call, turn)));
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
  // Runs recorded before the limit existed dispatched every call; they must replay unchanged.
  let kept = step;
  if (decision !== null && patched(DELEGATION_LIMIT_PATCH)) {
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

async function handleToolCall(input: LeadRunInput, state: LeadRunState, call: ToolCall, turn: number): Promise<ToolOutcome> {
  if (call.name !== TASK_TOOL_NAME) {
    return { kind: 'error', toolCallId: call.id, toolName: call.name, error: `Unknown tool '${call.name}'. Available: ${TASK_TOOL_NAME}` };
  }
  const check = validateTaskCall(call, input.catalog, input);
  if (!check.ok) return { kind: 'error', toolCallId: call.id, toolName: call.name, error: check.error };
  const task: TaskState = {
    taskId: call.id,
    turn,
    subagent: check.subagent.name,
    description: check.description,
    status: 'pending',
    stopReason: null,
    modelName: null,
    usage: null,
    resultBrief: null,
    resultSha256: null,
    resultRef: null,
    error: null,
    attempts: 0,
  };
  state.tasks.push(task);
  const decision = await runTaskWithSafetyNet(input, state, task, check.subagent);
  applyDecision(task, decision);
  setCurrentDetails(progressDetails(state));
  // The terminal event must be written even when the run is being cancelled.
  await CancellationScope.nonCancellable(() =>
    lead.recordTaskEnd({ threadId: input.threadId, runId: input.runId, task }),
  );
  upsertSearchAttributes([
    { key: SA_SUBAGENTS, value: unique(state.tasks.map((t) => t.subagent)) },
    { key: SA_STOP_REASONS, value: unique(state.tasks.flatMap((t) => (t.stopReason ? [t.stopReason] : []))) },
  ]);
  return { kind: 'subagent', toolCallId: call.id, task };
}

/**
 * Runs a task under the workflow-side safety net: if it is not done within its timeout plus the
 * grace period after dispatch (queue wait included), it is cancelled and ends `polling_timed_out`.
 * Runs recorded before the safety net existed had no such timer and replay without it.
 */
async function runTaskWithSafetyNet(input: LeadRunInput, state: LeadRunState, task: TaskState, subagent: CatalogEntry): Promise<TerminalDecision> {
  if (!patched(POLLING_SAFETY_NET_PATCH)) return runTask(input, state, task, subagent);
  const work = new CancellationScope();
  const timer = new CancellationScope();
  let overrun = false;
  const netMs = (subagent.timeoutSeconds + input.limits.pollingGraceSeconds) * 1000;
  const net = timer
    .run(() => sleep(netMs, { summary: `safety net: ${task.taskId}` }))
    .then(() => {
      overrun = true;
      work.cancel();
    })
    .catch(() => undefined);
  try {
    const decision = await work.run(() => runTask(input, state, task, subagent));
    return overrun ? pollingTimedOut(subagent.timeoutSeconds, 'running') : decision;
  } finally {
    timer.cancel();
    await net;
  }
}

async function runTask(input: LeadRunInput, state: LeadRunState, task: TaskState, subagent: CatalogEntry): Promise<TerminalDecision> {
  for (let attempt = 1; ; attempt++) {
    task.attempts = attempt;
    task.status = 'running';
    setCurrentDetails(progressDetails(state));
    const outcome = await executeOnce(input, task, subagent, attempt);
    const decision = decideTaskOutcome(outcome, {
      cancelRequested: CancellationScope.current().consideredCancelled,
      attempt,
      maxAttempts: input.limits.maxTaskAttempts,
      timeoutSeconds: subagent.timeoutSeconds,
      queueTimeoutSeconds: input.limits.queueTimeoutSeconds,
    });
    if (decision.kind === 'terminal') return decision;
  }
}

async function executeOnce(input: LeadRunInput, task: TaskState, subagent: CatalogEntry, attempt: number): Promise<ExecutionOutcome> {
  const options: ActivityOptions = {
    taskQueue: SUBAGENT_TASK_QUEUE,
    activityId: attempt === 1 ? task.taskId : `${task.taskId}#${attempt}`,
    summary: boundText(`${subagent.name}: ${task.description}`, 200),
    scheduleToStartTimeout: input.limits.queueTimeoutSeconds * 1000,
    startToCloseTimeout: subagent.timeoutSeconds * 1000,
    heartbeatTimeout: input.limits.heartbeatTimeoutSeconds * 1000,
    retry: { maximumAttempts: 1 },
  };
  try {
    const result = await subagents.runSubagent.executeWithOptions(options, [
      {
        threadId: input.threadId,
        runId: input.runId,
        userId: input.userId,
        taskId: task.taskId,
        turn: task.turn,
        attempt,
        subagentType: subagent.name,
        description: task.description,
        parentModel: input.modelName,
        maxTurns: subagent.maxTurns,
        availableSkills: input.availableSkills,
      },
    ]);
    return { kind: 'result', result };
  } catch (err) {
    return classifyActivityFailure(err);
  }
}

function applyDecision(task: TaskState, decision: TerminalDecision): void {
  const result = decision.result;
  task.status = decision.status;
  task.stopReason = decision.stopReason;
  task.error = decision.error;
  task.modelName = result?.modelName ?? null;
  task.usage = result?.usage ?? null;
  task.resultBrief = result?.resultBrief ?? null;
  task.resultSha256 = result?.resultSha256 ?? null;
  task.resultRef = result?.resultRef ?? null;
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
