import type { RunEvent } from '../contracts';
import type { RunEventStore } from '../store';
import { nextPollPause } from './stream-backoff';

/** A stored event as the API returns it (the ARCHITECTURE row shape, snake_case). */
export interface EventJson {
  readonly seq: number;
  readonly run_id: string;
  readonly thread_id: string;
  readonly category: string;
  readonly event: string;
  readonly task_id: string | null;
  readonly created_at: string;
  readonly payload: unknown;
}

/** The API shape of a stored event. */
export function eventJson(event: RunEvent): EventJson {
  return {
    seq: event.seq,
    run_id: event.runId,
    thread_id: event.threadId,
    category: event.category,
    event: event.event,
    task_id: event.taskId,
    created_at: event.createdAt,
    payload: event.payload,
  };
}

/** Options of {@link tailRunEvents}. */
export interface TailOptions {
  readonly events: RunEventStore;
  readonly runId: string;
  /** Only the run's rows in this thread (run ids may repeat across threads). */
  readonly threadId?: string;
  /** Start after this seq (0 = from the first row). */
  readonly afterSeq: number;
  /** Whether the run's workflow is still open. */
  readonly isOpen: () => Promise<boolean>;
  /** Pause between store reads once caught up, while rows keep arriving. */
  readonly pollMs: number;
  /**
   * Longest pause: while reads find nothing the pause doubles from `pollMs` up to this, and drops
   * back to `pollMs` as soon as rows arrive. @default `pollMs` (a fixed pace)
   */
  readonly pollMaxMs?: number;
  readonly signal: AbortSignal;
  /** Rows read per store query. @default 500 */
  readonly pageSize?: number;
}

/** How a tail ended: the run closed and every row was yielded, or the consumer went away. */
export type TailEnd = 'closed' | 'aborted';

/**
 * Every row of a run after `afterSeq`, in seq order, live: reads the store until caught up, then
 * polls. It returns `closed` only after a read that *started after* the workflow was seen closed
 * came back short: rows are committed before the activity (or workflow step) that wrote them
 * completes, so once the workflow is closed that read has seen every row. Resuming with the seq of
 * the last row yielded therefore loses and repeats nothing (the store's seq is monotonic and, per
 * run, commit order equals seq order). An idle tail backs off ({@link nextPollPause}); since
 * `isOpen` is only asked after an empty read, it backs off with the reads.
 */
export async function* tailRunEvents(options: TailOptions): AsyncGenerator<RunEvent, TailEnd> {
  const { events, runId, signal } = options;
  const pageSize = options.pageSize ?? 500;
  const backoff = { baseMs: options.pollMs, maxMs: options.pollMaxMs ?? options.pollMs };
  let cursor = options.afterSeq;
  let closed = false;
  let pause: number | null = null;
  for (;;) {
    let read = 0;
    for (;;) {
      if (signal.aborted) return 'aborted';
      const page = await events.listEvents({ runId, afterSeq: cursor, limit: pageSize, ...(options.threadId === undefined ? {} : { threadId: options.threadId }) });
      for (const event of page) {
        cursor = event.seq;
        read += 1;
        yield event;
        if (signal.aborted) return 'aborted';
      }
      if (page.length < pageSize) break;
    }
    if (closed) return 'closed';
    // Only ask Temporal when nothing new arrived: a live run producing rows is certainly open.
    if (read === 0 && !(await options.isOpen())) {
      closed = true;
      continue;
    }
    pause = nextPollPause(pause, read > 0, backoff);
    await sleep(pause, signal);
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
