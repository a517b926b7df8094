import type { Pool } from 'pg';
import { TASK_END_EVENT, type RunEvent } from '../../contracts';
import { DEFAULT_LIST_EVENTS_LIMIT, type ListEventsQuery, type NewRunEvent, type RunEventStore } from '../run-event-store';
import { toStoredJson } from '../stored-json';
import { LOCK_CLASS, withTransaction } from './postgres-database';

interface Row {
  seq: string;
  run_id: string;
  thread_id: string;
  category: string;
  event: string;
  task_id: string | null;
  created_at: Date;
  payload: unknown;
}

const COLUMNS = 'seq, run_id, thread_id, category, event, task_id, created_at, payload';

function toEvent(r: Row): RunEvent {
  return {
    // bigint identity: pg returns int8 as a string; seq stays far below 2^53.
    seq: Number(r.seq),
    runId: r.run_id,
    threadId: r.thread_id,
    category: r.category,
    event: r.event,
    taskId: r.task_id,
    createdAt: r.created_at.toISOString(),
    payload: r.payload,
  };
}

/** PostgreSQL implementation of {@link RunEventStore}; payloads are `jsonb`. */
export class PostgresRunEventStore implements RunEventStore {
  constructor(private readonly pool: Pool) {}

  async putBatch(events: readonly NewRunEvent[]): Promise<RunEvent[]> {
    if (events.length === 0) return [];
    return withTransaction(this.pool, async (client) => {
      // Readers tail a run with `afterSeq`. A sequence value is taken at insert but becomes visible
      // at commit, so two concurrent writers of one run could commit out of seq order and a reader
      // would skip the lower one forever. Serializing writers per run (locks in a fixed order, no
      // deadlock) makes seq order and commit order agree within a run.
      for (const runId of [...new Set(events.map((e) => e.runId))].sort()) {
        await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOCK_CLASS.runEvents, runId]);
      }
      const written: RunEvent[] = [];
      for (const e of events) {
        // The run's lock (above) is held by every writer, so a task's end and its late rows cannot interleave.
        const res = await client.query<Row>(
          `INSERT INTO run_events (dedupe_key, run_id, thread_id, category, event, task_id, created_at, payload)
           SELECT $1, $2, $3, $4, $5, $6, $7, $8::jsonb
           WHERE $5 = $9 OR $6::text IS NULL OR NOT EXISTS (
             SELECT 1 FROM run_events WHERE run_id = $2 AND task_id = $6 AND thread_id = $3 AND event = $9)
           ON CONFLICT (dedupe_key) DO NOTHING RETURNING ${COLUMNS}`,
          [e.dedupeKey, e.runId, e.threadId, e.category, e.event, e.taskId, new Date().toISOString(), toStoredJson(e.payload), TASK_END_EVENT],
        );
        if (res.rows[0]) written.push(toEvent(res.rows[0]));
      }
      return written;
    });
  }

  async listEvents(query: ListEventsQuery): Promise<RunEvent[]> {
    const params: unknown[] = [query.runId, query.afterSeq ?? 0];
    const where = ['run_id = $1', 'seq > $2'];
    if (query.threadId !== undefined) {
      params.push(query.threadId);
      where.push(`thread_id = $${params.length}`);
    }
    if (query.taskId !== undefined) {
      params.push(query.taskId);
      where.push(`task_id = $${params.length}`);
    }
    if (query.eventTypes !== undefined) {
      params.push([...query.eventTypes]);
      where.push(`event = ANY($${params.length}::text[])`);
    }
    params.push(query.limit ?? DEFAULT_LIST_EVENTS_LIMIT);
    const res = await this.pool.query<Row>(
      `SELECT ${COLUMNS} FROM run_events WHERE ${where.join(' AND ')} ORDER BY seq LIMIT $${params.length}`,
      params,
    );
    return res.rows.map(toEvent);
  }
}
