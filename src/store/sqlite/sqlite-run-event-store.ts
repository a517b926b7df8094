import { TASK_END_EVENT, type RunEvent } from '../../contracts';
import { DEFAULT_LIST_EVENTS_LIMIT, type ListEventsQuery, type NewRunEvent, type RunEventStore } from '../run-event-store';
import { toStoredJson } from '../stored-json';
import type { SqliteDatabase } from './open-sqlite-database';

interface Row {
  seq: number;
  run_id: string;
  thread_id: string;
  category: string;
  event: string;
  task_id: string | null;
  created_at: string;
  payload: string;
}

function toEvent(r: Row): RunEvent {
  return {
    seq: r.seq,
    runId: r.run_id,
    threadId: r.thread_id,
    category: r.category,
    event: r.event,
    taskId: r.task_id,
    createdAt: r.created_at,
    payload: JSON.parse(r.payload) as unknown,
  };
}

/** SQLite implementation of {@link RunEventStore}. */
export class SqliteRunEventStore implements RunEventStore {
  constructor(private readonly db: SqliteDatabase) {}

  async putBatch(events: readonly NewRunEvent[]): Promise<RunEvent[]> {
    const insert = this.db.prepare(
      `INSERT OR IGNORE INTO run_events (dedupe_key, run_id, thread_id, category, event, task_id, created_at, payload)
       SELECT @dedupeKey, @runId, @threadId, @category, @event, @taskId, @createdAt, @payload
       WHERE @event = @endEvent OR @taskId IS NULL OR NOT EXISTS (
         SELECT 1 FROM run_events WHERE run_id = @runId AND task_id = @taskId AND thread_id = @threadId AND event = @endEvent)
       RETURNING *`,
    );
    // The immediate transaction serializes writers, so a task's end and its late rows cannot interleave.
    const write = this.db.transaction((batch: readonly NewRunEvent[]) =>
      batch.flatMap((e) => {
        const row = insert.get({
          dedupeKey: e.dedupeKey,
          runId: e.runId,
          threadId: e.threadId,
          category: e.category,
          event: e.event,
          taskId: e.taskId,
          createdAt: new Date().toISOString(),
          payload: toStoredJson(e.payload),
          endEvent: TASK_END_EVENT,
        }) as Row | undefined;
        return row ? [toEvent(row)] : [];
      }),
    );
    return write.immediate(events);
  }

  async listEvents(query: ListEventsQuery): Promise<RunEvent[]> {
    const where = ['run_id = @runId', 'seq > @afterSeq'];
    const params: Record<string, unknown> = {
      runId: query.runId,
      afterSeq: query.afterSeq ?? 0,
      limit: query.limit ?? DEFAULT_LIST_EVENTS_LIMIT,
    };
    if (query.threadId !== undefined) {
      where.push('thread_id = @threadId');
      params.threadId = query.threadId;
    }
    if (query.taskId !== undefined) {
      where.push('task_id = @taskId');
      params.taskId = query.taskId;
    }
    if (query.eventTypes !== undefined) {
      where.push(`event IN (SELECT value FROM json_each(@eventTypes))`);
      params.eventTypes = JSON.stringify(query.eventTypes);
    }
    const rows = this.db
      .prepare(`SELECT * FROM run_events WHERE ${where.join(' AND ')} ORDER BY seq LIMIT @limit`)
      .all(params) as Row[];
    return rows.map(toEvent);
  }
}
