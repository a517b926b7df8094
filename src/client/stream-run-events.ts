import type { WorkflowHandle } from '@temporalio/client';
import type { RunEvent } from '../contracts';
import type { RunEventStore } from '../store';

export interface StreamRunEventsOptions {
  /** Only the run's rows in this thread (run ids may repeat across threads). */
  readonly threadId?: string;
  /** Resume after this seq (e.g. the last one a reconnecting consumer saw). */
  readonly afterSeq?: number;
  /** How often the store is polled while the run is live. @default 250 */
  readonly pollMs?: number;
  readonly signal?: AbortSignal;
}

/**
 * Every stored event of a run in `seq` order, live: polls the store while the run's workflow is
 * open and ends once it has closed and the last row was yielded. Resumable through `afterSeq`.
 */
export async function* streamRunEvents(
  events: RunEventStore,
  handle: WorkflowHandle,
  runId: string,
  options: StreamRunEventsOptions = {},
): AsyncGenerator<RunEvent> {
  let afterSeq = options.afterSeq ?? 0;
  let closed = false;
  void handle.result().then(
    () => (closed = true),
    () => (closed = true),
  );
  for (;;) {
    // Read `closed` before the page: a row written just before closing is still in this page or the next.
    const wasClosed = closed;
    const page = await events.listEvents({ runId, afterSeq, ...(options.threadId === undefined ? {} : { threadId: options.threadId }) });
    for (const event of page) {
      afterSeq = event.seq;
      yield event;
    }
    if (page.length > 0) continue;
    if (wasClosed || options.signal?.aborted) return;
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 250));
  }
}
