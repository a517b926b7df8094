import { CancellationScope, condition, patched, setCurrentDetails, sleep } from '@temporalio/workflow';
import type { AdmissionDecision, CatalogEntry, LeadRunInput, LeadRunState, TaskState } from '../contracts';
import { applyProgress } from '../contracts/task-spend';
import { executeSubagent } from './execute-subagent';
import type { TaskControl } from './lead-run-context';
import { WORKFLOW_PATCHES } from './patches';
import { progressDetails } from './progress-details';
import type { ExecutionOutcome } from './execution-outcome';
import { decideTaskOutcome, pollingTimedOut, type TerminalDecision } from './task-outcome';

/** Everything one task execution needs from its run. */
export interface TaskContext {
  readonly input: LeadRunInput;
  readonly state: LeadRunState;
  /** The admission decision of the task's response, or null for runs recorded before admission. */
  readonly admission: AdmissionDecision | null;
  /** Extendable deadlines (patch `task-deadlines`); older runs had fixed ones. */
  readonly deadlines: boolean;
}

/** The task's timeout right now: its own plus what `extendTask` added. */
function currentTimeout(task: TaskState, subagent: CatalogEntry): number {
  return subagent.timeoutSeconds + task.extendedSeconds;
}

/**
 * Runs a task under the workflow-side safety net: if it is not done within its timeout plus the
 * grace period after dispatch (queue wait included), it is cancelled and ends `polling_timed_out`.
 * Runs recorded before the safety net existed had no such timer and replay without it; runs
 * recorded since patch `batched-task-bookkeeping` share one net instead ({@link runWatchedTask}).
 */
export async function runTaskWithSafetyNet(ctx: TaskContext, task: TaskState, subagent: CatalogEntry, toolCallId: string): Promise<TerminalDecision> {
  if (!patched(WORKFLOW_PATCHES.pollingSafetyNet)) return runTask(ctx, task, subagent, toolCallId);
  const work = new CancellationScope();
  const timer = new CancellationScope();
  let overrun = false;
  const grace = ctx.input.limits.pollingGraceSeconds;
  const net = timer
    .run(() => (ctx.deadlines ? extendableSafetyNet(task, subagent, grace) : sleep((subagent.timeoutSeconds + grace) * 1000, { summary: `safety net: ${task.taskId}` })))
    .then(() => {
      overrun = true;
      work.cancel();
    })
    .catch(() => undefined);
  try {
    const decision = await work.run(() => runTask(ctx, task, subagent, toolCallId));
    return overrun ? pollingTimedOut(currentTimeout(task, subagent), 'running', decision.progress) : decision;
  } finally {
    timer.cancel();
    await net;
  }
}

/**
 * Runs a task that the run's one safety net watches (patch `batched-task-bookkeeping`, see
 * `watchTaskDeadlines`): a task the net gave up on had its scope cancelled and ends `polling_timed_out`.
 */
export function runWatchedTask(ctx: TaskContext, control: TaskControl, subagent: CatalogEntry, toolCallId: string): Promise<TerminalDecision> {
  const { task } = control;
  // A `then`, not an async wrapper: every promise workflow code creates costs the SDK a stack
  // trace (its stack trace query), and this path runs once per task.
  return runTask(ctx, task, subagent, toolCallId).then((decision) =>
    control.overrun ? pollingTimedOut(currentTimeout(task, subagent), 'running', decision.progress) : decision,
  );
}

/**
 * The safety net of an extendable task: it fires once the task's current timeout plus the grace
 * has passed since dispatch, and re-arms whenever `extendTask` moves the deadline.
 */
async function extendableSafetyNet(task: TaskState, subagent: CatalogEntry, graceSeconds: number): Promise<void> {
  const dispatchedAt = Date.now();
  for (;;) {
    const seen = task.extendedSeconds;
    const remainingMs = dispatchedAt + (currentTimeout(task, subagent) + graceSeconds) * 1000 - Date.now();
    if (remainingMs <= 0) return;
    await condition(() => task.extendedSeconds !== seen, remainingMs);
  }
}

async function runTask(ctx: TaskContext, task: TaskState, subagent: CatalogEntry, toolCallId: string): Promise<TerminalDecision> {
  const { input, state, admission } = ctx;
  for (let attempt = 1; ; attempt++) {
    task.attempts = attempt;
    task.status = 'running';
    setCurrentDetails(progressDetails(state));
    const outcome = await executeOnce(ctx, task, subagent, toolCallId, attempt);
    const decision = decideTaskOutcome(outcome, {
      cancelRequested: CancellationScope.current().consideredCancelled,
      attempt,
      maxAttempts: input.limits.maxTaskAttempts,
      timeoutSeconds: currentTimeout(task, subagent),
      queueTimeoutSeconds: admission?.scheduleToStartSeconds ?? input.limits.queueTimeoutSeconds,
      capacityRejection: admission?.policy === 'reject' ? admission.capacityMessage : null,
    });
    if (decision.kind === 'terminal') return decision;
  }
}

function executeOnce(ctx: TaskContext, task: TaskState, subagent: CatalogEntry, toolCallId: string, attempt: number): Promise<ExecutionOutcome> {
  const { input, admission } = ctx;
  return executeSubagent({
    activityId: attempt === 1 ? task.taskId : `${task.taskId}#${attempt}`,
    subagentName: subagent.name,
    description: task.description,
    scheduleToStartSeconds: admission?.scheduleToStartSeconds ?? input.limits.queueTimeoutSeconds,
    // An extendable execution enforces its own deadline; Temporal's is the backstop past any extension.
    startToCloseSeconds: subagent.timeoutSeconds + (ctx.deadlines ? input.limits.maxTaskExtensionSeconds : 0),
    heartbeatSeconds: input.limits.heartbeatTimeoutSeconds,
    rethrowCancellation: false,
    input: {
      kind: 'task',
      threadId: input.threadId,
      runId: input.runId,
      userId: input.userId,
      taskId: task.taskId,
      toolCallId,
      turn: task.turn,
      attempt,
      subagentType: subagent.name,
      description: task.description,
      parentModel: input.modelName,
      maxTurns: subagent.maxTurns,
      availableSkills: input.availableSkills,
      ...(ctx.deadlines ? { deadlineSeconds: subagent.timeoutSeconds } : {}),
    },
  });
}

/**
 * Copies a terminal decision onto the task's state. Usage, model and evidence come from the result,
 * else from what the ending execution reported; with neither (a cancelled execution's failure
 * carries nothing), the task keeps what signal `taskProgress` last set until the writer of its end
 * returns what the execution stored (`spendInStore`).
 */
export function applyDecision(task: TaskState, decision: TerminalDecision): void {
  const { result, progress } = decision;
  task.status = decision.status;
  task.stopReason = decision.stopReason;
  task.error = decision.error;
  task.errorCode = decision.errorCode;
  if (result !== null) {
    task.modelName = result.modelName ?? task.modelName;
    task.usage = result.usage;
    // Results recorded before receipts existed carry no evidence field.
    task.evidence = result.evidence ?? null;
    // Absent in results recorded before resume existed.
    if (result.resumedSteps !== undefined) task.resumedSteps = result.resumedSteps;
  } else if (progress !== undefined) {
    applyProgress(task, progress);
  }
  task.resultBrief = result?.resultBrief ?? null;
  task.resultSha256 = result?.resultSha256 ?? null;
  task.resultRef = result?.resultRef ?? null;
}
