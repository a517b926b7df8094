import type { Pool } from 'pg';
import { TASK_END_EVENT, type RunEvent } from '../../contracts';
import { DEFAULT_LIST_EVENTS_LIMIT, type ListEventsQuery, type NewRunEvent, type RunEventStore } from '../run-event-store';
import { toStoredJson } from '../stored-json';
import { withoutRowsAfterTaskEnd } from '../task-end-fence';
import { writtenRunEvent } from '../written-run-event';
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
    const batch = withoutRowsAfterTaskEnd(events);
    if (batch.length === 0) return [];
    const payloads = batch.map((e) => toStoredJson(e.payload));
    return withTransaction(this.pool, async (client) => {
      // Readers tail a run with `afterSeq`. A sequence value is taken at insert but becomes visible
      // at commit, so two concurrent writers of one run could commit out of seq order and a reader
      // would skip the lower one forever. Serializing writers per run (locks in a fixed order, no
      // deadlock) makes seq order and commit order agree within a run.
      for (const runId of [...new Set(batch.map((e) => e.runId))].sort()) {
        await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOCK_CLASS.runEvents, runId]);
      }
      // One statement for the batch, rows in batch order (seq follows it). The run's lock (above) is
      // held by every writer, so a task's end and its late rows cannot interleave; the end event is
      // a literal so that the partial index of end rows serves the fence.
      const res = await client.query<{ seq: string; dedupe_key: string; created_at: Date }>(
        `INSERT INTO run_events (dedupe_key, run_id, thread_id, category, event, task_id, created_at, payload)
         SELECT v.dedupe_key, v.run_id, v.thread_id, v.category, v.event, v.task_id, now(), v.payload::jsonb
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
           WITH ORDINALITY AS v(dedupe_key, run_id, thread_id, category, event, task_id, payload, ord)
         WHERE v.event = '${TASK_END_EVENT}' OR v.task_id IS NULL OR NOT EXISTS (
           SELECT 1 FROM run_events r
           WHERE r.event = '${TASK_END_EVENT}' AND r.run_id = v.run_id AND r.task_id = v.task_id AND r.thread_id = v.thread_id)
         ORDER BY v.ord
         ON CONFLICT (dedupe_key) DO NOTHING
         RETURNING seq, dedupe_key, created_at`,
        [
          batch.map((e) => e.dedupeKey),
          batch.map((e) => e.runId),
          batch.map((e) => e.threadId),
          batch.map((e) => e.category),
          batch.map((e) => e.event),
          batch.map((e) => e.taskId),
          payloads,
        ],
      );
      const stored = new Map(res.rows.map((r) => [r.dedupe_key, r]));
      const written: RunEvent[] = [];
      batch.forEach((e, i) => {
        const row = stored.get(e.dedupeKey);
        // A key repeated in the batch was written once, by its first row.
        if (row === undefined) return;
        stored.delete(e.dedupeKey);
        written.push(writtenRunEvent(e, Number(row.seq), row.created_at.toISOString(), payloads[i] ?? 'null'));
      });
      return written.sort((a, b) => a.seq - b.seq);
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
