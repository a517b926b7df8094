import {
  ApplicationFailure,
  CancellationScope,
  ContinueAsNew,
  isCancellation,
  makeContinueAsNewFunc,
  patched,
  setCurrentDetails,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { SearchAttributePair } from '@temporalio/common';
import type { CallOutcome, LeadCallRef, LeadModelStepInput, LeadModelTurn, LeadRunInput, LeadRunState, ToolOutcome } from '../contracts';
import { addUsage } from '../contracts/add-usage';
import { INVALID_INPUT_TYPE } from '../contracts/failure-types';
import { formatZodIssues } from '../contracts/format-zod-issues';
import { leadRunSearchAttributes, missingSearchAttributes } from '../contracts/identity-search-attributes';
import { SA_RUN_STATUS, SA_STOP_REASONS } from '../contracts/search-attributes';
import { leadCallId, TASK_TOOL_NAME } from '../contracts/tool-names';
import { bookkeeping, lead, localLead } from './activity-proxies';
import { failureMessage } from './classify-activity-failure';
import { applyDelegationLimit, SUBAGENT_LIMIT_NOTE } from './delegation-limit';
import { shouldContinueAsNew } from './batch-window';
import { decideLeadGuards, INITIAL_LEAD_GUARDS } from './lead-guards';
import { inputSchemas } from './input-schemas';
import type { LeadRunContext } from './lead-run-context';
import { awaitAnswer } from './lead-clarification';
import { registerLeadRunHandlers } from './lead-run-handlers';
import { changedTaskAttributes, publishTaskProgress, runLeadResponse, upsertTaskAttributes } from './lead-response';
import { toolListIncludes } from '../contracts/tool-patterns';
import { WORKFLOW_PATCHES, type LeadPatchId } from './patches';
import { newLeadRunState } from './new-lead-run-state';
import { writtenByNextStep } from './outcomes-for-next-step';
import { progressDetails } from './progress-details';
import { stopReasons } from './task-search-attributes';
import { ToolOutcomeWriter } from './tool-outcome-writer';

/**
 * One lead run: model step, then every tool call of that step in parallel (`task` calls as
 * `runSubagent` activities, the lead's own tools as `runLeadTool` activities), then the next model
 * step, until the model answers without tool calls. History carries ids, statuses, usage and
 * bounded briefs; transcripts stay in the store.
 */
export async function leadRunWorkflow(rawInput: LeadRunInput): Promise<LeadRunState> {
  const parsed = inputSchemas.leadRun().safeParse(rawInput);
  if (!parsed.success) {
    throw ApplicationFailure.nonRetryable(`Invalid lead run input: ${formatZodIssues(parsed.error.issues, '(input)')}`, INVALID_INPUT_TYPE);
  }
  const input = parsed.data;
  // A continued run picks up where the previous execution stopped: the whole state, not the history.
  const state: LeadRunState = input.resume ? { ...input.resume.state, status: 'running' } : newLeadRunState(input.runId, input.threadId);
  // Decided first: a run started since records one marker instead of one per lead patch, the
  // latest such marker, which stands for the patches of the ones before it too.
  const attributesAfterStep = patched(WORKFLOW_PATCHES.leadTaskAttributesAfterStep);
  const outcomesInStep = attributesAfterStep || patched(WORKFLOW_PATCHES.leadOutcomesInStep);
  const allPatches = outcomesInStep || patched(WORKFLOW_PATCHES.leadPatchesInOne);
  const hasPatch = (id: LeadPatchId): boolean => allPatches || patched(id);
  // Decided once: runs recorded before it keyed calls by the provider's ids and had no lead tools.
  const ownCallIds = hasPatch(WORKFLOW_PATCHES.leadCalls);
  // Runs recorded before it raced each task against its own timer and wrote and upserted per call.
  const batched = hasPatch(WORKFLOW_PATCHES.batchedTaskBookkeeping);
  const open = new Map<string, LeadCallRef>();
  const leaveToStep = outcomesInStep ? (burst: readonly CallOutcome[]) => writtenByNextStep(burst, open, state.question !== null) : null;
  const run: LeadRunContext = {
    input,
    state,
    hasPatch,
    ownCallIds,
    open,
    unseenTurn: null,
    guarded: hasPatch(WORKFLOW_PATCHES.leadGuards),
    guards: input.resume?.guards ?? INITIAL_LEAD_GUARDS,
    continues: hasPatch(WORKFLOW_PATCHES.leadContinueAsNew),
    taskControls: new Map(),
    deadlines: hasPatch(WORKFLOW_PATCHES.taskDeadlines),
    outcomes: batched ? new ToolOutcomeWriter(input.threadId, input.runId, leaveToStep) : null,
    clarifies: hasPatch(WORKFLOW_PATCHES.leadClarification),
    answer: null,
    attributesAfterStep,
    localModelSteps: input.modelSteps === 'local' && patched(WORKFLOW_PATCHES.leadLocalModelSteps),
  };
  // Never settles: it waits for outcomes as long as the run lives.
  if (run.outcomes !== null) void run.outcomes.run((leftToStep) => publishTaskProgress(run, leftToStep));
  // Decided here, at start, like the others: a run started without its identifying attributes (by a
  // plain Temporal client) gets them in the same upsert as its status, one command either way.
  const identity = hasPatch(WORKFLOW_PATCHES.identitySearchAttributes)
    ? missingSearchAttributes(workflowInfo().typedSearchAttributes, leadRunSearchAttributes(input))
    : [];
  registerLeadRunHandlers(run);
  upsertSearchAttributes([{ key: SA_RUN_STATUS, value: 'running' }, ...identity]);

  try {
    await runLoop(run);
  } catch (err) {
    if (err instanceof ContinueAsNew) throw err;
    state.status = isCancellation(err) ? 'cancelled' : 'failed';
    state.error = failureMessage(err);
    await run.outcomes?.writeLeftForStep();
    await closeOpenCalls(run, state.status === 'cancelled' ? 'cancelled' : 'not run: the run failed');
    upsertSearchAttributes([{ key: SA_RUN_STATUS, value: state.status }, ...(run.attributesAfterStep ? closingAttributes(run) : [])]);
    throw err;
  }
  upsertSearchAttributes([{ key: SA_RUN_STATUS, value: state.status }, ...closingAttributes(run)]);
  setCurrentDetails(progressDetails(state));
  return state;
}

/**
 * What the run's closing upsert carries beside its status. Guarded runs make their own stop reason
 * searchable, next to their tasks' ones; since patch `lead-task-attributes-after-step` the upsert
 * also carries the tasks' attributes the run left for it, and only what changed.
 */
function closingAttributes(run: LeadRunContext): SearchAttributePair[] {
  const { state } = run;
  const runStopReason = run.guarded ? state.stopReason : null;
  if (run.attributesAfterStep) return changedTaskAttributes(run, runStopReason);
  return runStopReason === null ? [] : [{ key: SA_STOP_REASONS, value: stopReasons(state.tasks, runStopReason) }];
}

async function runLoop(run: LeadRunContext): Promise<void> {
  const { input, state } = run;
  const maxTurns = input.limits.maxLeadTurns;
  let toolOutcomes: ToolOutcome[] = [];
  const firstTurn = input.resume?.turn ?? 0;
  for (let turn = firstTurn; turn < maxTurns; turn++) {
    if (run.continues && turn > firstTurn) await continueAsNewIfDue(run, turn);
    state.turn = turn;
    setCurrentDetails(progressDetails(state));
    // Until the step returns, its stored message (if any) is one the run has not seen.
    if (run.ownCallIds) run.unseenTurn = turn;
    const stepInput: LeadModelStepInput = {
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
      leadTools: run.ownCallIds ? input.leadTools : [],
      clarification: run.clarifies,
      promotedTools: [...state.promotedTools],
      warnings: [...run.guards.pending],
      // Runs that admit in a local activity take the snapshot from the step instead (no activity).
      admissionSnapshot: run.outcomes !== null,
    };
    const steps = run.localModelSteps ? localLead : lead;
    const outcomes = run.outcomes?.leftForStep ?? [];
    let step = await (outcomes.length > 0 ? steps.leadModelStepWithOutcomes({ ...stepInput, outcomes: [...outcomes] }) : steps.leadModelStep(stepInput));
    run.outcomes?.stepWrote();
    // Kept apart: a rewritten turn (guards, delegation limit) comes back without it.
    const admission = step.admission ?? null;
    run.unseenTurn = null;
    run.guards = { ...run.guards, pending: [] };
    state.leadUsage = addUsage(state.leadUsage, step.usage);
    if (run.guarded) {
      const guarded = await applyLeadGuards(run, step, turn);
      if (guarded === null) return;
      step = guarded;
    }
    // Ids by position in the model's response, before the delegation limit drops any call.
    const callIds = new Map(step.toolCalls.map((call, index) => [call.id, run.ownCallIds ? leadCallId(turn, index) : call.id]));
    step = await enforceDelegationLimit(run, step, turn);
    if (step.toolCalls.length === 0) {
      finish(state, step);
      return;
    }
    const ids = step.toolCalls.map((call) => callIds.get(call.id) ?? call.id);
    if (run.ownCallIds && turn === maxTurns - 1) {
      // The lead could never read these results: they are not run, and the thread says so.
      for (const [index, call] of step.toolCalls.entries()) {
        const callId = ids[index] ?? call.id;
        run.open.set(callId, { callId, toolCallId: call.id, toolName: call.name });
        if (toolListIncludes(input.leadTools, call.name)) state.leadTools.push({ callId, turn, tool: call.name, status: 'failed', error: notRunAtTurnCap(maxTurns) });
      }
      break;
    }
    // What the last response's outcomes changed, left for this workflow task (see `publishTaskProgress`).
    if (run.attributesAfterStep) upsertTaskAttributes(run);
    toolOutcomes = await runLeadResponse(run, step.toolCalls, ids, turn, admission);
    if (state.question !== null && !(await awaitAnswer(run))) return;
  }
  state.status = 'failed';
  state.stopReason = 'turn_capped';
  state.error = `Lead reached max_turns=${maxTurns} without a final answer`;
  await closeOpenCalls(run, notRunAtTurnCap(maxTurns));
}

function notRunAtTurnCap(maxTurns: number): string {
  return `not run: the lead reached max_turns=${maxTurns}`;
}

/**
 * Between turns (every outcome written, nothing open), a long run continues as new once its
 * history reaches the run's event limit or Temporal suggests it, carrying only its state: turn,
 * tasks, direct calls, ledger counts, usage and the guards' memory.
 */
async function continueAsNewIfDue(run: LeadRunContext, turn: number): Promise<void> {
  const info = workflowInfo();
  if (!shouldContinueAsNew({ length: info.historyLength, suggested: info.continueAsNewSuggested }, run.input.limits.historyEventLimit)) return;
  const { loop, budgetWarned, pending } = run.guards;
  const guards = {
    loop: { hashes: [...loop.hashes], warnedHashes: [...loop.warnedHashes], toolNames: [...loop.toolNames], warnedTools: [...loop.warnedTools] },
    budgetWarned,
    pending: [...pending],
  };
  // The last response's outcomes are written here: the next execution's first step gets none.
  await run.outcomes?.writeLeftForStep();
  const resume = { turn, state: { ...run.state }, guards, continuedRuns: (run.input.resume?.continuedRuns ?? 0) + 1 };
  // Attributes the last response's outcomes changed go with the next execution's start.
  const typedSearchAttributes = run.attributesAfterStep ? info.typedSearchAttributes.updateCopy(changedTaskAttributes(run)) : info.typedSearchAttributes;
  const next = makeContinueAsNewFunc<typeof leadRunWorkflow>({ typedSearchAttributes });
  await next({ ...run.input, resume });
}

/** Ends the run on its final message: completed, unless a guard stop left nothing to say. */
function finish(state: LeadRunState, final: LeadModelTurn, error: string | null = null): void {
  state.finalMessageRef = final.messageRef;
  state.finalMessageBrief = final.contentBrief;
  state.status = error === null ? 'completed' : 'failed';
  state.error = error;
}

/**
 * The lead's guardrails on one response (decided by the pure {@link decideLeadGuards}): null when
 * the run ends here, else the response to go on with. A stop strips the response's calls from the
 * stored message (with the guard's note) so the thread holds the final answer the run ended on.
 */
async function applyLeadGuards(run: LeadRunContext, step: LeadModelTurn, turn: number): Promise<LeadModelTurn | null> {
  const { input, state } = run;
  const decided = decideLeadGuards(run.guards, step, state.leadUsage, { tokenBudget: input.limits.leadTokenBudget, loop: input.limits.leadLoopDetection });
  run.guards = decided.state;
  const verdict = decided.verdict;
  if (verdict.kind === 'continue') return step;
  if (verdict.kind === 'failed') {
    finish(state, step, verdict.error);
    return null;
  }
  const final =
    step.toolCalls.length > 0 || verdict.note !== null
      ? await bookkeeping.rewriteLeadTurn({ threadId: input.threadId, runId: input.runId, turn, modelName: input.modelName, keptToolCallIds: [], note: verdict.note })
      : step;
  state.stopReason = verdict.stopReason;
  finish(state, final, final.contentBrief.trim() === '' ? `The lead's response ended with ${verdict.stopReason} and no text` : null);
  return null;
}

/**
 * Applies the per-response and per-run delegation limit to one lead response (SPEC §6.1): the
 * decision is the pure {@link applyDelegationLimit}; the stored message is rewritten to match it.
 */
async function enforceDelegationLimit(run: LeadRunContext, step: LeadModelTurn, turn: number): Promise<LeadModelTurn> {
  const { input, state } = run;
  const limits = { maxConcurrent: step.maxConcurrent ?? input.limits.maxConcurrent, maxTotal: input.limits.maxTotal };
  const decision = applyDelegationLimit(step.toolCalls, limits, state.delegatedTaskCalls);
  let kept = step;
  if (decision !== null && run.hasPatch(WORKFLOW_PATCHES.delegationLimit)) {
    kept = await bookkeeping.rewriteLeadTurn({
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

/**
 * Gives every call the run will not answer a closing tool message (and a model step the run never
 * saw the end of, its calls too), so the thread never holds a dangling tool call. Runs even when the
 * run is being cancelled; runs recorded before calls were closed skip it.
 */
async function closeOpenCalls(run: LeadRunContext, text: string): Promise<void> {
  if (!run.ownCallIds || (run.open.size === 0 && run.unseenTurn === null)) return;
  const calls = [...run.open.values()];
  await CancellationScope.nonCancellable(() =>
    bookkeeping.closeToolCalls({ threadId: run.input.threadId, runId: run.input.runId, calls, unseenTurn: run.unseenTurn, text }),
  );
  run.open.clear();
  run.unseenTurn = null;
}
