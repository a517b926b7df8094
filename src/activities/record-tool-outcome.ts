import { RecordToolOutcomeInputSchema, type RecordToolOutcomeInput, type ToolOutcome } from '../contracts';
import { messageKeys, type NewRunEvent } from '../store';
import type { ActivityDeps } from './activity-deps';
import { parseActivityInput } from './parse-activity-input';
import { toolEndEvent } from './lead-tool-events';
import { dropEndedTaskCheckpoints, taskEndEvent } from './record-task-end';
import { putThreadMessage } from './thread-writes';
import { toolOutcomeMessage } from './tool-outcome-message';

interface CallOutcome {
  readonly callId: string;
  readonly outcome: ToolOutcome;
}

/** The outcomes of the input, whichever shape the workflow sent: a burst, or (runs recorded before bursts) one call's. */
function callOutcomes(input: RecordToolOutcomeInput): { threadId: string; runId: string; outcomes: readonly CallOutcome[] } {
  const data = parseActivityInput(RecordToolOutcomeInputSchema, input, 'recordToolOutcome');
  return 'outcomes' in data ? data : { threadId: data.threadId, runId: data.runId, outcomes: [{ callId: data.callId, outcome: data.outcome }] };
}

async function endEvent(deps: ActivityDeps, threadId: string, runId: string, { callId, outcome }: CallOutcome): Promise<NewRunEvent | null> {
  if (outcome.kind === 'subagent') return taskEndEvent(deps, threadId, runId, outcome.task);
  if (outcome.kind === 'leadTool') return toolEndEvent({ threadId, runId, callId }, outcome.toolName, { status: outcome.status, error: outcome.error });
  return null;
}

/**
 * Builds the `recordToolOutcome` activity: the outcomes the workflow learned together, written as
 * soon as it knows them: the tool message the lead reads next, a task's single `subagent.end` (and
 * the checkpoints its executions left behind), a lead tool's `tool.end`; the end rows in one batch.
 * Every write is keyed by the id the run gave the call, so a retry writes nothing twice.
 */
export function createRecordToolOutcome(deps: ActivityDeps) {
  return async function recordToolOutcome(input: RecordToolOutcomeInput): Promise<void> {
    const { threadId, runId, outcomes } = callOutcomes(input);
    const events = (await Promise.all(outcomes.map((call) => endEvent(deps, threadId, runId, call)))).filter((e): e is NewRunEvent => e !== null);
    if (events.length > 0) await deps.stores.events.putBatch(events);
    for (const { callId, outcome } of outcomes) {
      if (outcome.kind === 'subagent') await dropEndedTaskCheckpoints(deps, threadId, runId, outcome.task);
      const message = await toolOutcomeMessage(outcome, deps.stores.results, deps.stores.batches);
      await putThreadMessage(deps, threadId, runId, messageKeys.tool(runId, callId), message);
    }
  };
}
