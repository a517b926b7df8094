import { WorkflowFailedError } from '@temporalio/client';
import type { LeadRunState, RunEvent } from '../contracts';
import type { StartedRun, StartRunRequest } from '../client';
import type { Runtime } from './runtime';

const POLL_INTERVAL_MS = 300;

export interface ExecutedRun {
  readonly started: StartedRun;
  readonly state: LeadRunState;
  /** Temporal's run id of the workflow execution (for Web UI links). */
  readonly temporalRunId: string;
}

/**
 * Starts a lead run and waits for it to close, passing each new stored event to `onEvent`
 * as it appears. A failed or cancelled workflow is not an error here: its state says how it ended.
 */
export async function executeRun(
  runtime: Runtime,
  request: StartRunRequest,
  onEvent: (event: RunEvent) => void = () => undefined,
): Promise<ExecutedRun> {
  const started = await runtime.deerflow.startRun(request);
  let afterSeq = 0;
  const drain = async () => {
    for (;;) {
      const page = await runtime.stores.events.listEvents({ runId: started.runId, afterSeq });
      page.forEach(onEvent);
      const last = page[page.length - 1];
      if (last === undefined) return;
      afterSeq = last.seq;
    }
  };
  let closed = false;
  const poller = (async () => {
    while (!closed) {
      await drain();
      await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
    }
  })();
  try {
    await started.handle.result();
  } catch (err) {
    if (!(err instanceof WorkflowFailedError)) throw err;
  } finally {
    closed = true;
    await poller;
  }
  await drain();
  const description = await started.handle.describe();
  const state = await runtime.deerflow.getState(started.workflowId);
  return { started, state, temporalRunId: description.runId };
}
