import { WorkflowFailedError } from '@temporalio/client';
import type { LeadRunState, RunEvent } from '../contracts';
import type { StartedRun, StartRunRequest } from '../client';
import type { Runtime } from './runtime';

export interface ExecutedRun {
  readonly started: StartedRun;
  readonly state: LeadRunState;
  /** Temporal's run id of the workflow execution (for Web UI links). */
  readonly temporalRunId: string;
}

/**
 * Starts a lead run and waits for it to close, passing each stored event to `onEvent` as it
 * appears (DeerFlowClient.stream). A failed or cancelled workflow is not an error here: its state
 * says how it ended.
 */
export async function executeRun(
  runtime: Runtime,
  request: StartRunRequest,
  onEvent: (event: RunEvent, run: StartedRun) => void = () => undefined,
): Promise<ExecutedRun> {
  const started = await runtime.deerflow.startRun(request);
  for await (const event of runtime.deerflow.stream(started.workflowId, started.runId, { threadId: started.threadId })) onEvent(event, started);
  await started.handle.result().catch((err: unknown) => {
    if (!(err instanceof WorkflowFailedError)) throw err;
  });
  const description = await started.handle.describe();
  const state = await runtime.deerflow.getState(started.workflowId);
  return { started, state, temporalRunId: description.runId };
}
