import type { RunEvent } from '../contracts';

/** An event to store; `dedupeKey` makes writes idempotent (a retried write never duplicates a row). */
export interface NewRunEvent {
  readonly dedupeKey: string;
  readonly runId: string;
  readonly threadId: string;
  readonly category: string;
  readonly event: string;
  readonly taskId: string | null;
  readonly payload: unknown;
}

export interface ListEventsQuery {
  readonly runId: string;
  /** Only the run's rows in this thread: run ids are chosen by callers and may repeat across threads. */
  readonly threadId?: string;
  readonly taskId?: string;
  readonly eventTypes?: readonly string[];
  /** Forward cursor: only rows with a greater seq. */
  readonly afterSeq?: number;
  /** @default 500 */
  readonly limit?: number;
}

/** Run events (subagent lifecycle rows and the like), paged forward by `seq`. */
export interface RunEventStore {
  /**
   * Writes the events in order; rows whose dedupe key exists are skipped, and so is every row of a
   * task (same thread, run and task id) once that task's end row (`TASK_END_EVENT`) is stored: nothing
   * follows a task's end. Returns the rows written.
   */
  putBatch(events: readonly NewRunEvent[]): Promise<RunEvent[]>;
  /** Rows of one run in `seq` order; filters apply before the limit. */
  listEvents(query: ListEventsQuery): Promise<RunEvent[]>;
}

export const DEFAULT_LIST_EVENTS_LIMIT = 500;
