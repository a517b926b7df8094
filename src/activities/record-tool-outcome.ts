import type { RecordToolOutcomeInput } from '../contracts';
import { messageKeys } from '../store';
import type { ActivityDeps } from './activity-deps';
import { toolEndEvent } from './lead-tool-events';
import { dropEndedTaskCheckpoints, taskEndEvent } from './record-task-end';
import { putThreadMessage } from './thread-writes';
import { toolOutcomeMessage } from './tool-outcome-message';

/**
 * Builds the `recordToolOutcome` activity: one call's outcome written as soon as the workflow knows
 * it: the tool message the lead reads next, a task's single `subagent.end` (and the checkpoints its
 * executions left behind), a lead tool's `tool.end`.
 * Every write is keyed by the id the run gave the call, so a retry writes nothing twice.
 */
export function createRecordToolOutcome(deps: ActivityDeps) {
  return async function recordToolOutcome(input: RecordToolOutcomeInput): Promise<void> {
    const { threadId, runId, callId, outcome } = input;
    if (outcome.kind === 'subagent') {
      await deps.stores.events.putBatch([await taskEndEvent(deps, threadId, runId, outcome.task)]);
      await dropEndedTaskCheckpoints(deps, threadId, runId, outcome.task);
    }
    if (outcome.kind === 'leadTool') {
      await deps.stores.events.putBatch([toolEndEvent({ threadId, runId, callId }, outcome.toolName, { status: outcome.status, error: outcome.error })]);
    }
    const message = await toolOutcomeMessage(outcome, deps.stores.results, deps.stores.batches);
    await putThreadMessage(deps, threadId, runId, messageKeys.tool(runId, callId), message);
  };
}
