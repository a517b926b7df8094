import type { History } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { workflowBundle } from './create-workers';

/**
 * Replays one recorded workflow history on the current workflow code (the bundle workers run with
 * the default config), as a worker would after losing the workflow from its cache. `workflowId`
 * must be the id the workflow ran under: child workflow ids derive from it, so another id changes
 * the commands the code issues.
 *
 * @throws DeterminismViolationError when the code issues other commands than the history recorded
 *   (its message names the event and the command).
 * @throws ReplayError when the replay fails for another reason (e.g. the workflow task failed).
 */
export async function replayWorkflowHistory(history: History, workflowId: string): Promise<void> {
  await Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history, workflowId);
}
