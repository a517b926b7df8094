import {
  ApplicationFailure,
  CancellationScope,
  condition,
  continueAsNew,
  getExternalWorkflowHandle,
  isCancellation,
  patched,
  setCurrentDetails,
  setHandler,
  sleep,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { BatchActivities } from '../activities/activity-types';
import type {
  AdmissionDecision,
  BatchItemOutcome,
  BatchItemProgress,
  BatchItemRuntime,
  BatchItemExecution,
  BatchItemWorkflowInput,
  TerminalBatchItemStatus,
} from '../contracts';
import { INVALID_INPUT_TYPE } from '../contracts/failure-types';
import { SA_RUN_STATUS } from '../contracts/search-attributes';
import { itemBookkeeping as bookkeeping } from './activity-proxies';
import { decideItemOutcome, itemBackoffMs, type ItemDecision, type ItemTerminal } from './batch-item-outcome';
import { itemSlotGrantedSignal, releaseItemSlotSignal, requestItemSlotSignal } from './batch-messages';
import { executeBatchItemTry, executeSubagent, type BatchItemTryOutcome } from './execute-subagent';
import type { ExecutionOutcome } from './execution-outcome';
import { WORKFLOW_PATCHES } from './patches';

type StartedAttempt = Awaited<ReturnType<BatchActivities['startBatchItemAttempt']>>;

/** A workflow-time timestamp (deterministic: the SDK replays the recorded time). */
function now(): string {
  return new Date().toISOString();
}

/**
 * One item of a batch: runs a try as `runBatchItem`, which waits for one of the batch's running
 * leases and runs the subagent while it holds it, and decides from the outcome (pure
 * {@link decideItemOutcome}) whether to wait for capacity (no attempt used), retry (attempt used)
 * or end. Every try is recorded on the item row; the terminal write is fenced by the store, so a
 * cancelled item stays cancelled. Items of batches started before patch `batch-item-leases` (no
 * `leased` in their input: the batch decided, so an item needs no patch marker of its own) ask
 * their batch for a running slot by signal and the subagent queue for admission, then run
 * `runSubagent`.
 */
export async function batchItemWorkflow(rawInput: BatchItemWorkflowInput): Promise<BatchItemOutcome> {
  const { runtime, key, progress, slotGranted, leased } = checkItemInput(rawInput);
  // Decided once, at start: older items started a try with two local activities.
  const oneStartActivity = !leased && patched(WORKFLOW_PATCHES.batchItemStartAttempt);
  // The batch passed a running slot with the start: the first try does not ask for one.
  let holdsSlot = slotGranted;
  let granted = false;
  setHandler(itemSlotGrantedSignal, () => {
    granted = true;
  });
  // Started by a batch that hands out running slots: they bound how many items execute at once.
  const parentId = workflowInfo().parent?.workflowId;
  const batch = parentId === undefined || leased ? null : getExternalWorkflowHandle(parentId);

  let last: ItemTerminal;
  // The attempt executing right now, if any: a cancellation mid-run has used it.
  let executing: number | null = null;
  let attemptsFromRow = false;
  /** A try of an item started before patch `batch-item-leases`: slot, admission, running mark, `runSubagent`. */
  const slottedTry = async (attempt: number, tries: number): Promise<{ decision: ItemDecision } | { ended: BatchItemOutcome }> => {
    if (batch !== null && !holdsSlot) {
      granted = false;
      await batch.signal(requestItemSlotSignal, { key });
      await condition(() => granted);
    }
    holdsSlot = false;
    const { admission, mark } = await startAttempt(oneStartActivity, runtime.batchId, key, attempt);
    if (mark === null) return { decision: { kind: 'capacity_wait', outcome: 'capacity_rejected', error: admission.rejection ?? admission.capacityMessage } };
    // Terminal already: the batch was cancelled while this item waited.
    if (!mark.written) return { ended: ended(key, mark.status as TerminalBatchItemStatus, progress.attemptsUsed) };
    progress.startedAt ??= now();
    details(runtime, progress, `attempt ${attempt} running`);
    executing = attempt;
    const decision = decideItemOutcome(await executeOnce(runtime, key, attempt, tries, admission), {
      attempt,
      maxAttempts: runtime.maxAttempts,
      timeoutSeconds: runtime.subagent.timeoutSeconds,
      queueTimeoutSeconds: admission.scheduleToStartSeconds,
      capacityRejection: admission.policy === 'reject' ? admission.capacityMessage : null,
    });
    return { decision };
  };
  try {
    for (let tries = 1; ; tries++) {
      if (workflowInfo().continueAsNewSuggested) {
        // A slot passed with the start goes with it: the batch counts it as held, not as asked for.
        await continueAsNew<typeof batchItemWorkflow>({ runtime, key, progress, ...(holdsSlot ? { slotGranted: true } : {}), ...(leased ? { leased } : {}) });
      }
      const attempt = progress.attemptsUsed + 1;
      let decision: ItemDecision;
      if (leased) {
        // The store marks the item running when the try takes its lease (and sets `started_at` then).
        details(runtime, progress, `attempt ${attempt}: waiting for a running lease, or running`);
        executing = attempt;
        const tried = await executeLeasedTry(runtime, key, attempt, tries);
        // A completed try wrote the item's end itself: nothing is left to decide or write.
        if (tried.finished !== null) {
          const stopReason = tried.outcome.kind === 'result' && tried.finished.written ? tried.outcome.result.stopReason : null;
          return ended(key, tried.finished.status as TerminalBatchItemStatus, attempt, stopReason);
        }
        decision = decideItemOutcome(tried.outcome, {
          attempt,
          maxAttempts: runtime.maxAttempts,
          timeoutSeconds: runtime.subagent.timeoutSeconds,
          queueTimeoutSeconds: runtime.leaseSeconds,
          capacityRejection: null,
        });
      } else {
        details(runtime, progress, 'waiting for a running slot');
        const slotted = await slottedTry(attempt, tries);
        if ('ended' in slotted) return slotted.ended;
        decision = slotted.decision;
      }
      if (decision.kind === 'terminal') {
        progress.attemptsUsed = attempt;
        last = decision;
        break;
      }
      executing = null;
      const waitFor = decision.kind === 'capacity_wait' ? ++progress.capacityWaits : attempt;
      if (decision.kind === 'retry') {
        progress.attemptsUsed = attempt;
        progress.capacityWaits = 0;
      }
      const recorded = await bookkeeping.recordBatchItemAttempt({ batchId: runtime.batchId, key, attempt, outcome: decision.outcome, error: decision.error, at: now() });
      if (!recorded.written) return ended(key, recorded.status as TerminalBatchItemStatus, progress.attemptsUsed);
      if (batch !== null) await batch.signal(releaseItemSlotSignal, { key });
      details(runtime, progress, `${decision.outcome}: waiting before the next try`);
      await sleep(itemBackoffMs(runtime.pollIntervalSeconds, waitFor));
    }
  } catch (err) {
    if (!isCancellation(err)) throw err;
    last = { kind: 'terminal', status: 'cancelled', stopReason: null, error: null, result: null };
    // A leased try may still have been waiting for its lease: the row knows whether it ran.
    if (executing !== null && !leased) progress.attemptsUsed = executing;
    attemptsFromRow = executing !== null && leased;
  }
  const decision = last;
  // The terminal write must happen even while the item is being cancelled.
  const finished = await CancellationScope.nonCancellable(() =>
    bookkeeping.finishBatchItem({
      runtime,
      key,
      status: decision.status,
      resultRef: decision.result?.resultRef ?? null,
      resultSha256: decision.result?.resultSha256 ?? null,
      stopReason: decision.stopReason,
      error: decision.error,
      attempts: progress.attemptsUsed,
      ...(attemptsFromRow ? { attemptsFromRow } : {}),
      // An attempt that ended without a result keeps what it spent (failure or heartbeat details).
      modelName: decision.result?.modelName ?? decision.progress?.modelName ?? null,
      usage: decision.result?.usage ?? decision.progress?.usage ?? null,
      startedAt: progress.startedAt,
      completedAt: now(),
    }),
  );
  return ended(key, finished.status as TerminalBatchItemStatus, progress.attemptsUsed, finished.written ? decision.stopReason : null);
}

function ended(key: string, status: TerminalBatchItemStatus, attempts: number, stopReason: BatchItemOutcome['stopReason'] = null): BatchItemOutcome {
  upsertSearchAttributes([{ key: SA_RUN_STATUS, value: status }]);
  return { key, status, attempts, stopReason };
}

/**
 * Admission for one try, then (admitted) the item's `running` mark: one local activity, or, in
 * items started before patch `batch-item-start-attempt`, two in a row.
 */
async function startAttempt(oneActivity: boolean, batchId: string, key: string, attempt: number): Promise<StartedAttempt> {
  if (oneActivity) return bookkeeping.startBatchItemAttempt({ batchId, key, attempt, at: now() });
  const admission = await bookkeeping.admitSubagents({ requested: 1 });
  if (admission.admitted < 1) return { admission, mark: null };
  return { admission, mark: await bookkeeping.markBatchItemRunning({ batchId, key, attempt, at: now() }) };
}

function details(runtime: BatchItemRuntime, progress: BatchItemProgress, what: string): void {
  setCurrentDetails(`**${what}** · attempts used ${progress.attemptsUsed} of ${runtime.maxAttempts} · capacity waits ${progress.capacityWaits}`);
}

function executeOnce(runtime: BatchItemRuntime, key: string, attempt: number, tries: number, admission: AdmissionDecision): Promise<ExecutionOutcome> {
  return executeSubagent({
    // Unique per schedule: a capacity timeout schedules the same attempt again.
    activityId: `attempt-${attempt}.${tries}`,
    subagentName: runtime.subagent.name,
    description: key,
    scheduleToStartSeconds: admission.scheduleToStartSeconds,
    startToCloseSeconds: runtime.subagent.timeoutSeconds,
    heartbeatSeconds: runtime.leaseSeconds,
    rethrowCancellation: true,
    input: itemExecution(runtime, key, attempt),
  });
}

/** What one try of item `key` runs as, in attempt `attempt`. */
function itemExecution(runtime: BatchItemRuntime, key: string, attempt: number): BatchItemExecution {
  return {
    kind: 'batchItem',
    threadId: runtime.threadId,
    batchId: runtime.batchId,
    key,
    userId: runtime.ownerId,
    attempt,
    subagentType: runtime.subagent.name,
    description: key,
    parentModel: runtime.parentModel,
    maxTurns: runtime.subagent.maxTurns,
    availableSkills: runtime.availableSkills,
  };
}

function executeLeasedTry(runtime: BatchItemRuntime, key: string, attempt: number, tries: number): Promise<BatchItemTryOutcome> {
  return executeBatchItemTry({
    // Unique per schedule: a capacity wait schedules the same attempt again.
    activityId: `attempt-${attempt}.${tries}`,
    subagentName: runtime.subagent.name,
    timeoutSeconds: runtime.subagent.timeoutSeconds,
    leaseSeconds: runtime.leaseSeconds,
    pollIntervalSeconds: runtime.pollIntervalSeconds,
    item: itemExecution(runtime, key, attempt),
  });
}

/**
 * The item's input, checked without zod. Only `batchWorkflow` starts items, with the runtime it
 * validated (zod) and a key read from the store; loading zod in every item workflow would cost
 * ~35 ms of CPU per item (measured with `npm run bench:batch`), so this checks the shape it relies on.
 */
function checkItemInput(raw: BatchItemWorkflowInput): { runtime: BatchItemRuntime; key: string; progress: BatchItemProgress; slotGranted: boolean; leased: boolean } {
  const problems: string[] = [];
  if (typeof raw?.key !== 'string' || raw.key.trim() === '') problems.push('key: must be a non-empty string');
  const runtime = raw?.runtime;
  for (const field of ['batchId', 'ownerId', 'threadId', 'parentModel'] as const) {
    if (typeof runtime?.[field] !== 'string' || runtime[field] === '') problems.push(`runtime.${field}: must be a non-empty string`);
  }
  if (typeof runtime?.subagent?.name !== 'string') problems.push('runtime.subagent.name: must be a string');
  for (const field of ['maxAttempts', 'pollIntervalSeconds', 'leaseSeconds'] as const) {
    if (typeof runtime?.[field] !== 'number' || !(runtime[field] > 0)) problems.push(`runtime.${field}: must be a positive number`);
  }
  if (problems.length > 0) throw ApplicationFailure.nonRetryable(`Invalid batch item input: ${problems.join('; ')}`, INVALID_INPUT_TYPE);
  return {
    runtime,
    key: raw.key,
    progress: { attemptsUsed: 0, capacityWaits: 0, startedAt: null, ...raw.progress },
    slotGranted: raw.slotGranted === true,
    leased: raw.leased === true,
  };
}
