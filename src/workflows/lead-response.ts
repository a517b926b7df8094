import { CancellationScope, executeChild, isCancellation, setCurrentDetails, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { SearchAttributePair } from '@temporalio/common';
import type { AdmissionDecision, AdmissionSnapshot, LeadBatch, LeadCallRef, LeadToolState, TaskState, ToolCall, ToolOutcome } from '../contracts';
import { decideAdmission } from '../contracts/admission';
import { pendingBatchCounts } from '../contracts/batch-counts';
import { boundText } from '../contracts/bounded-text';
import { promoteTools } from '../contracts/deferred-tools';
import { finishedTask } from '../contracts/finished-task';
import { applyProgress } from '../contracts/task-spend';
import { SA_BATCH_ID, SA_USER_ID } from '../contracts/search-attributes';
import { BATCH_TASK_TOOL_NAME, TASK_TOOL_NAME } from '../contracts/tool-names';
import { bookkeeping, lead, localBookkeeping } from './activity-proxies';
import { batchWorkflowId } from './batch-messages';
import { batchWorkflow } from './batch-workflow';
import { classifyActivityFailure, failureMessage } from './classify-activity-failure';
import { leadToolSummary, planLeadCalls, type PlannedCall } from './lead-call-plan';
import type { LeadRunContext, TaskControl } from './lead-run-context';
import { decideLeadToolFailure } from './lead-tool-outcome';
import { newTaskState } from './new-lead-run-state';
import { WORKFLOW_PATCHES } from './patches';
import { progressDetails } from './progress-details';
import { applyDecision, runTaskWithSafetyNet, runWatchedTask, type TaskContext } from './run-task';
import { capacityRejected, type TerminalDecision } from './task-outcome';
import { watchTaskDeadlines } from './task-safety-net';
import { changedSearchAttributes, taskSearchAttributes } from './task-search-attributes';

/**
 * Runs every tool call of one lead response in parallel: tasks (after admission), the batch of a
 * `batch_task` call, the lead's own tools; refused and unknown calls are answered at once. Each
 * outcome is written as soon as it is known; runs recorded before that return the outcomes for the
 * next model step to write.
 */
export async function runLeadResponse(
  run: LeadRunContext,
  calls: readonly ToolCall[],
  callIds: readonly string[],
  turn: number,
  snapshot: AdmissionSnapshot | null,
): Promise<ToolOutcome[]> {
  const { input, state } = run;
  // Runs recorded before batches existed answered `batch_task` as an unknown tool.
  const batches = calls.some((call) => call.name === BATCH_TASK_TOOL_NAME) && run.hasPatch(WORKFLOW_PATCHES.batchTask);
  const plan = planLeadCalls(calls, callIds, {
    catalog: input.catalog,
    allowedSubagents: input.allowedSubagents,
    hostBashAllowed: input.hostBashAllowed,
    leadTools: run.ownCallIds ? input.leadTools : [],
    batches,
    clarification: run.clarifies,
  });
  if (run.ownCallIds) for (const planned of plan) run.open.set(planned.ref.callId, planned.ref);
  const taskCount = plan.filter((p) => p.kind === 'task').length;
  const admission = taskCount > 0 && run.hasPatch(WORKFLOW_PATCHES.admission) ? await admitTasks(run, taskCount, snapshot) : null;
  const ctx: TaskContext = { input, state, admission, deadlines: run.deadlines };
  let admitted = 0;
  const running = plan.map((planned, index): Promise<ToolOutcome | null> => {
    if (planned.kind === 'task') {
      const refused = admission !== null && admitted++ >= admission.admitted;
      return runTask(run, ctx, planned, turn, refused ? capacityRejected(admission.rejection ?? admission.capacityMessage) : null);
    }
    return answerCall(run, planned, turn, calls[index]);
  });
  // Every task of the response registered itself before its first await: one net watches them all.
  const net = run.outcomes !== null ? watchTaskDeadlines(run) : null;
  const outcomes = await Promise.all(running);
  await net;
  return run.ownCallIds ? [] : outcomes.filter((o): o is ToolOutcome => o !== null);
}

/**
 * Admission of a response's tasks (SPEC C.1). With the model step's snapshot it is decided here,
 * from history, with no command; a step that returned none (runs recorded before the snapshot, a
 * step run by an older worker) leaves it to `admitSubagents`: a local activity in the workflow task
 * that schedules the tasks, or an activity in runs recorded before the outcome writer.
 */
async function admitTasks(run: LeadRunContext, requested: number, snapshot: AdmissionSnapshot | null): Promise<AdmissionDecision> {
  if (snapshot !== null) return decideAdmission(requested, snapshot.queued, snapshot.settings);
  const admit = run.outcomes === null ? bookkeeping : localBookkeeping;
  return admit.admitSubagents({ requested });
}

async function answerCall(run: LeadRunContext, planned: Exclude<PlannedCall, { kind: 'task' }>, turn: number, call: ToolCall | undefined): Promise<ToolOutcome | null> {
  const { ref } = planned;
  switch (planned.kind) {
    case 'leadTool':
      await runLeadTool(run, ref, turn, call ?? { id: ref.toolCallId, name: ref.toolName, args: {}, argsTruncated: false });
      return null;
    case 'batch':
      return deliver(run, ref, await runLeadBatch(run, ref, turn));
    case 'unknown':
      return deliver(run, ref, { kind: 'error', toolCallId: ref.toolCallId, toolName: ref.toolName, error: planned.error });
    case 'clarify':
      return askUser(run, ref, planned.question);
    case 'refusedTask': {
      if (!run.ownCallIds) return { kind: 'error', toolCallId: ref.toolCallId, toolName: TASK_TOOL_NAME, error: planned.error };
      // A refused task is a failed task: listed with its error, one `subagent.end`, no start.
      const task = newTaskState(ref.callId, turn, planned.subagentType, planned.description);
      run.state.tasks.push(task);
      applyDecision(task, { kind: 'terminal', status: 'failed', stopReason: null, error: planned.error, errorCode: null, result: null });
      return finishTask(run, ref, task);
    }
    default: {
      const unreachable: never = planned;
      throw new Error(`unknown planned call ${JSON.stringify(unreachable)}`);
    }
  }
}

/**
 * `ask_clarification`: the question is written as the call's answer and shown to the user (event
 * `clarification.asked`); the run waits for the answer once the response's other calls are done.
 * One question per response: a second one is answered with an error.
 */
async function askUser(run: LeadRunContext, ref: LeadCallRef, question: string): Promise<ToolOutcome | null> {
  const { state, input } = run;
  if (state.question !== null) {
    return deliver(run, ref, { kind: 'error', toolCallId: ref.toolCallId, toolName: ref.toolName, error: 'Ask one question at a time: wait for the answer to the first one' });
  }
  state.question = { callId: ref.callId, text: question };
  await CancellationScope.nonCancellable(() =>
    bookkeeping.recordClarification({ phase: 'asked', threadId: input.threadId, runId: input.runId, callId: ref.callId, toolCallId: ref.toolCallId, question }),
  );
  run.open.delete(ref.callId);
  return null;
}

/**
 * Writes one call's outcome (tool message; a task's `subagent.end`, a lead tool's `tool.end`) as
 * soon as it is known, even while the run is being cancelled. Runs recorded before outcomes were
 * written at once hand it to the next model step instead.
 */
function deliver(run: LeadRunContext, ref: LeadCallRef, outcome: ToolOutcome, task?: TaskState): Promise<ToolOutcome> {
  if (!run.ownCallIds) return Promise.resolve(outcome);
  const { threadId, runId } = run.input;
  const written =
    run.outcomes !== null
      ? run.outcomes.write(ref.callId, outcome)
      : CancellationScope.nonCancellable(() => bookkeeping.recordToolOutcome({ threadId, runId, callId: ref.callId, outcome })).then(() => null);
  // A `then`, not an await: one promise fewer per call (see `finishTask`).
  return written.then((spent) => {
    // What the task's execution stored, for a task whose end brought no spend (see `spendInStore`).
    if (spent !== null && task !== undefined) applyProgress(task, spent);
    run.open.delete(ref.callId);
    return outcome;
  });
}

/** One of the lead's own tool calls as one `runLeadTool` activity; it writes its own tool message. */
async function runLeadTool(run: LeadRunContext, ref: LeadCallRef, turn: number, call: ToolCall): Promise<void> {
  const { input, state } = run;
  const entry: LeadToolState = { callId: ref.callId, turn, tool: ref.toolName, status: 'running', error: null };
  state.leadTools.push(entry);
  setCurrentDetails(progressDetails(state));
  const limits = { timeoutSeconds: input.limits.leadToolTimeoutSeconds, heartbeatTimeoutSeconds: input.limits.leadToolHeartbeatTimeoutSeconds };
  try {
    const result = await lead.runLeadTool.executeWithOptions(
      {
        activityId: ref.callId,
        summary: boundText(leadToolSummary(call), 200),
        startToCloseTimeout: limits.timeoutSeconds * 1000,
        heartbeatTimeout: limits.heartbeatTimeoutSeconds * 1000,
        // A tool may have side effects: it never runs twice behind the lead's back.
        retry: { maximumAttempts: 1 },
      },
      [
        {
          threadId: input.threadId,
          runId: input.runId,
          userId: input.userId,
          turn,
          callId: ref.callId,
          toolCallId: ref.toolCallId,
          toolName: ref.toolName,
          allowedTools: [...input.leadTools],
          // Scheduled with the response's other calls, before any of their results: a tool this
          // response's own `tool_search` finds is not promoted for its sibling calls.
          promotedTools: [...state.promotedTools],
        },
      ],
    );
    entry.status = result.status;
    entry.error = result.error;
    // Promotion is run state: carried through continue-as-new, gone when the run ends.
    if (result.promotedTools !== undefined) state.promotedTools = promoteTools(state.promotedTools, result.promotedTools);
    run.open.delete(ref.callId);
  } catch (err) {
    const failure = decideLeadToolFailure(classifyActivityFailure(err), limits);
    entry.status = failure.status;
    entry.error = failure.error;
    // A cancelled call is closed with the run's closing message.
    if (failure.status === 'failed') await deliver(run, ref, { kind: 'leadTool', toolCallId: ref.toolCallId, toolName: ref.toolName, status: 'failed', error: failure.error });
  } finally {
    setCurrentDetails(progressDetails(state));
  }
}

/**
 * One `batch_task` call: the batch is validated and stored by an activity, then runs as a child
 * `batchWorkflow` (cancelled with the run). Its items never count toward the run's `task` budget.
 */
async function runLeadBatch(run: LeadRunContext, ref: LeadCallRef, turn: number): Promise<ToolOutcome> {
  const { input, state } = run;
  const error = (message: string): ToolOutcome => ({ kind: 'error', toolCallId: ref.toolCallId, toolName: BATCH_TASK_TOOL_NAME, error: message });
  const prepared = await bookkeeping.prepareLeadBatch({
    threadId: input.threadId,
    runId: input.runId,
    userId: input.userId,
    turn,
    toolCallId: ref.toolCallId,
    ...(run.ownCallIds ? { callId: ref.callId } : {}),
    modelName: input.modelName,
    catalog: input.catalog,
    availableSkills: input.availableSkills,
  });
  if (!prepared.ok) return error(prepared.error);
  const { runtime } = prepared.batch;
  const batch: LeadBatch = {
    toolCallId: ref.toolCallId,
    batchId: runtime.batchId,
    ownerId: runtime.ownerId,
    status: 'running',
    counts: pendingBatchCounts(prepared.batch.itemCount),
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
  return { kind: 'batch', toolCallId: ref.toolCallId, batch: { ...batch, counts: { ...batch.counts } } };
}


/**
 * Runs one task (unless admission already refused it), then records its single terminal event.
 * A `then`, not an async function with an await: every promise workflow code creates costs the SDK
 * a stack trace (its stack trace query), and this runs once per task. The continuations run at the
 * same ticks, so tasks ending together still write their ends in the same order.
 */
function runTask(
  run: LeadRunContext,
  ctx: TaskContext,
  planned: Extract<PlannedCall, { kind: 'task' }>,
  turn: number,
  refusal: TerminalDecision | null,
): Promise<ToolOutcome> {
  const task = newTaskState(planned.ref.callId, turn, planned.subagent.name, planned.description);
  run.state.tasks.push(task);
  // Its own scope, so `cancelTask` (or the run's safety net) can cancel this task alone.
  const scope = new CancellationScope();
  const control: TaskControl = { scope, timeoutSeconds: planned.subagent.timeoutSeconds, task, dispatchedAtMs: Date.now(), overrun: false };
  run.taskControls.set(task.taskId, control);
  const { subagent, ref } = planned;
  const end = (decision: TerminalDecision): Promise<ToolOutcome> => {
    run.taskControls.delete(task.taskId);
    applyDecision(task, decision);
    // An execution that ran and ended with no result or report (cancelled) left its spend in the store.
    return finishTask(run, ref, task, task.attempts > 0 && decision.result === null && decision.progress === undefined);
  };
  // Settled through an async function, as before: a refused task's outcome settles two ticks after
  // its write, where recorded histories expect it.
  if (refusal !== null) return (async () => end(refusal))();
  return scope
    .run(() => (run.outcomes !== null ? runWatchedTask(ctx, control, subagent, ref.toolCallId) : runTaskWithSafetyNet(ctx, task, subagent, ref.toolCallId)))
    .then(end, (err: unknown) => {
      run.taskControls.delete(task.taskId);
      throw err;
    });
}

/**
 * Records a terminal task: its `subagent.end` (and, for newer runs, its tool message) and the run's
 * search attributes. Runs that write outcomes in bursts publish the attributes per burst instead.
 * Not async itself: every promise workflow code creates costs the SDK a stack trace (for its
 * stack trace query), and the burst path runs once per task.
 */
function finishTask(run: LeadRunContext, ref: LeadCallRef, task: TaskState, spendInStore = false): Promise<ToolOutcome> {
  const outcome: ToolOutcome = { kind: 'subagent', toolCallId: ref.toolCallId, task: finishedTask(task) };
  if (run.outcomes === null) return recordTaskEnd(run, ref, task, outcome);
  return deliver(run, ref, spendInStore ? { ...outcome, spendInStore } : outcome, task);
}

/** {@link finishTask} of runs recorded before outcomes were written in bursts. */
async function recordTaskEnd(run: LeadRunContext, ref: LeadCallRef, task: TaskState, outcome: ToolOutcome): Promise<ToolOutcome> {
  const { input, state } = run;
  setCurrentDetails(progressDetails(state));
  if (run.ownCallIds) {
    await deliver(run, ref, outcome);
  } else {
    // The terminal event must be written even when the run is being cancelled.
    await CancellationScope.nonCancellable(() => bookkeeping.recordTaskEnd({ threadId: input.threadId, runId: input.runId, task: finishedTask(task) }));
  }
  upsertSearchAttributes(taskSearchAttributes(state.tasks));
  return outcome;
}

/**
 * Once per burst of outcomes (patch `batched-task-bookkeeping`): the current details, and the tasks' search
 * attributes when they changed (an upsert is a history event; most bursts change nothing). A burst
 * left to the next model step leaves them to the run's next upsert too (patch
 * `lead-task-attributes-after-step`): the workflow task that learned it schedules that step alone.
 */
export function publishTaskProgress(run: LeadRunContext, leftToStep: boolean): void {
  setCurrentDetails(progressDetails(run.state));
  if (!(leftToStep && run.attributesAfterStep)) upsertTaskAttributes(run);
}

/** Upserts the tasks' search attributes that changed since the run's last upsert, if any. */
export function upsertTaskAttributes(run: LeadRunContext): void {
  const changed = changedTaskAttributes(run);
  if (changed.length > 0) upsertSearchAttributes(changed);
}

/** The tasks' search attributes (with the run's own stop reason, when given) that differ from the run's current ones. */
export function changedTaskAttributes(run: LeadRunContext, runStopReason: string | null = null): SearchAttributePair[] {
  return changedSearchAttributes(workflowInfo().typedSearchAttributes, taskSearchAttributes(run.state.tasks, runStopReason));
}
