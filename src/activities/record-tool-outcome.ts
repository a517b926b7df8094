import { applyProgress, type CallOutcome, type RecordToolOutcomeInput, type RecordToolOutcomeResult, type SubagentProgress } from '../contracts';
import { messageKeys, type NewRunEvent, type TaskProgressStore, type TaskResultStore } from '../store';
import type { ActivityDeps } from './activity-deps';
import { parseActivityInput } from './parse-activity-input';
import { toolEndEvent } from './lead-tool-events';
import { dropEndedTaskCheckpoints, taskEndEvent } from './record-task-end';
import { putThreadMessages } from './thread-writes';
import { toolOutcomeMessage } from './tool-outcome-message';

/** The outcomes of the input, whichever shape the workflow sent: a burst, or (runs recorded before bursts) one call's. */
function callOutcomes(input: RecordToolOutcomeInput): { threadId: string; runId: string; outcomes: readonly CallOutcome[] } {
  const data = parseActivityInput('recordToolOutcome', input);
  return 'outcomes' in data ? data : { threadId: data.threadId, runId: data.runId, outcomes: [{ callId: data.callId, outcome: data.outcome }] };
}

/** `results` reading each result once: a task's end event and its tool message both carry its text. */
function readingOnce(results: TaskResultStore): TaskResultStore {
  const read = new Map<string, Promise<string | null>>();
  return {
    putResult: (entry) => results.putResult(entry),
    getResult: (ref) => {
      const text = read.get(ref) ?? results.getResult(ref);
      read.set(ref, text);
      return text;
    },
  };
}

async function endEvent(results: TaskResultStore, threadId: string, runId: string, { callId, outcome }: CallOutcome): Promise<NewRunEvent | null> {
  if (outcome.kind === 'subagent') return taskEndEvent(results, threadId, runId, outcome.task);
  if (outcome.kind === 'leadTool') return toolEndEvent({ threadId, runId, callId }, outcome.toolName, { status: outcome.status, error: outcome.error });
  return null;
}

/**
 * `call` with the stored spend of its task when the run asked for it (`spendInStore`) and the store
 * holds that of the task's ending attempt, and the spend it took; else `call` as it is.
 */
async function withStoredSpend(store: TaskProgressStore, threadId: string, runId: string, call: CallOutcome): Promise<{ call: CallOutcome; spent: SubagentProgress | null }> {
  const { outcome } = call;
  if (outcome.kind !== 'subagent' || outcome.spendInStore !== true) return { call, spent: null };
  const stored = await store.getProgress({ threadId, runId, taskId: outcome.task.taskId });
  if (stored === null || stored.attempt !== outcome.task.attempts) return { call, spent: null };
  const task = { ...outcome.task };
  applyProgress(task, stored.progress);
  return { call: { ...call, outcome: { ...outcome, task } }, spent: stored.progress };
}

/**
 * Writes outcomes the run learned together: the tool message the lead reads next, a task's single
 * `subagent.end` (and the checkpoints its executions left behind), a lead tool's `tool.end`; the
 * end rows in one batch, the tool messages in another (in call order), both asked for at once.
 * Every write is keyed by the id the run gave the call, so a retry writes nothing twice. A task the
 * run knows no spend of is written with the spend its execution stored, which is returned.
 */
export async function writeToolOutcomes(deps: ActivityDeps, threadId: string, runId: string, asked: readonly CallOutcome[]): Promise<RecordToolOutcomeResult> {
  const resolved = await Promise.all(asked.map((call) => withStoredSpend(deps.stores.progress, threadId, runId, call)));
  const outcomes = resolved.map(({ call }) => call);
  const results = readingOnce(deps.stores.results);
  const events = (await Promise.all(outcomes.map((call) => endEvent(results, threadId, runId, call)))).filter((e): e is NewRunEvent => e !== null);
  const messages = await Promise.all(
    outcomes.map(async ({ callId, outcome }) => ({ key: messageKeys.tool(runId, callId), message: await toolOutcomeMessage(outcome, results, deps.stores.batches) })),
  );
  // Asked for together, so a SQLite store commits the end rows and the tool messages at once
  // (one WAL sync on the lead's path); each write is keyed, so a retry adds only what is missing.
  await Promise.all([
    events.length > 0 ? deps.stores.events.putBatch(events) : null,
    putThreadMessages(deps, threadId, runId, messages),
    ...outcomes.map(({ outcome }) => (outcome.kind === 'subagent' ? dropEndedTaskCheckpoints(deps, threadId, runId, outcome.task) : null)),
  ]);
  return { spent: resolved.flatMap(({ call, spent }) => (spent === null ? [] : [{ callId: call.callId, progress: spent }])) };
}

/**
 * Builds the `recordToolOutcome` activity: the outcomes the workflow learned together, written as
 * soon as it knows them ({@link writeToolOutcomes}); the stored spend it took goes back to the run.
 */
export function createRecordToolOutcome(deps: ActivityDeps) {
  return async function recordToolOutcome(input: RecordToolOutcomeInput): Promise<RecordToolOutcomeResult> {
    const { threadId, runId, outcomes } = callOutcomes(input);
    return writeToolOutcomes(deps, threadId, runId, outcomes);
  };
}
