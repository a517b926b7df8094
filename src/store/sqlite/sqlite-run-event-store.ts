import { TASK_END_EVENT, type RunEvent } from '../../contracts';
import { DEFAULT_LIST_EVENTS_LIMIT, type ListEventsQuery, type NewRunEvent, type RunEventStore } from '../run-event-store';
import { toStoredJson } from '../stored-json';
import { isFencedByTaskEnd, isSameTask, taskKeyOf, withoutRowsAfterTaskEnd } from '../task-end-fence';
import { writtenRunEvent } from '../written-run-event';
import type { SqliteDatabase } from './open-sqlite-database';
import type { SqliteGroupCommit } from './sqlite-group-commit';

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
  readonly #insert;
  // The end event is a literal, not a parameter: only then can SQLite use the partial index of end rows.
  readonly #taskEnded;
  readonly #write;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly group: SqliteGroupCommit,
  ) {
    this.#insert = db.prepare<[string, string, string, string, string, string | null, string, string]>(
      `INSERT OR IGNORE INTO run_events (dedupe_key, run_id, thread_id, category, event, task_id, created_at, payload)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.#taskEnded = db.prepare<[string, string, string]>(
      `SELECT 1 FROM run_events WHERE event = '${TASK_END_EVENT}' AND run_id = ? AND task_id = ? AND thread_id = ? LIMIT 1`,
    );
    // Runs in the group's immediate transaction, which serializes writers: a task's end and its
    // late rows cannot interleave.
    this.#write = (events: readonly NewRunEvent[]): RunEvent[] => {
      const batch = withoutRowsAfterTaskEnd(events);
      const ended = this.#endedTasks(batch);
      const createdAt = new Date().toISOString();
      const written: RunEvent[] = [];
      for (const e of batch) {
        // Hardly any batch reaches a task that has ended: then no row needs its key.
        if (ended.size > 0 && isFencedByTaskEnd(e) && ended.has(taskKeyOf(e) ?? '')) continue;
        const payload = toStoredJson(e.payload);
        const info = this.#insert.run(e.dedupeKey, e.runId, e.threadId, e.category, e.event, e.taskId, createdAt, payload);
        if (info.changes === 0) continue;
        // seq is the rowid: the row just written has the last one.
        const seq = Number(info.lastInsertRowid);
        written.push(writtenRunEvent(e, seq, createdAt, payload));
      }
      return written;
    };
  }

  /** The tasks among the batch's fenced rows whose end row is stored. */
  #endedTasks(batch: readonly NewRunEvent[]): Set<string> {
    const ended = new Set<string>();
    const checked = new Set<string>();
    let last: NewRunEvent | undefined;
    for (const e of batch) {
      // A task's rows mostly come in runs: build its key only where the task changes.
      if (!isFencedByTaskEnd(e) || (last !== undefined && isSameTask(last, e))) continue;
      last = e;
      const key = taskKeyOf(e);
      if (key === null || checked.has(key)) continue;
      checked.add(key);
      if (this.#taskEnded.get(e.runId, e.taskId ?? '', e.threadId) !== undefined) ended.add(key);
    }
    return ended;
  }

  async putBatch(events: readonly NewRunEvent[]): Promise<RunEvent[]> {
    if (events.length === 0) return [];
    return this.group.run(() => this.#write(events));
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
