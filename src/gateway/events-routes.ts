import type { FastifyInstance, FastifyReply } from 'fastify';
import { DEFAULT_LIST_EVENTS_LIMIT } from '../store';
import { eventJson, tailRunEvents, type EventJson } from './event-tail';
import { GatewayError } from './errors';
import { DEFAULT_HEARTBEAT_MS, DEFAULT_MAX_STREAMS_PER_CALLER, DEFAULT_STREAM_POLL_MAX_MS, DEFAULT_STREAM_POLL_MS, type GatewayDeps } from './gateway-deps';
import { callerOf } from './request-caller';
import { findRun, isRunOpen, type FoundRun } from './run-lookup';
import { SseWriter } from './sse';
import { StreamSlots } from './stream-slots';
import { EventsQuerySchema, LastEventIdSchema, parseInput, RunParamsSchema, StreamQuerySchema } from './validation';

/** Body of `GET .../events`. */
export interface EventsPage {
  readonly events: readonly EventJson[];
  /**
   * Cursor for the next page: the last row's seq, or the request's `after_seq` when the page is
   * empty. A page shorter than `limit` means the run has no more rows *yet*.
   */
  readonly next_after_seq: number;
}

/** Data of the final `end` event of a stream. */
export interface StreamEnd {
  readonly run_id: string;
  /** Temporal status of the closed workflow (`COMPLETED`, `FAILED`, `CANCELLED`, ...). */
  readonly workflow_status: string;
  /** Seq of the last row sent on this connection or before it (the resume cursor). */
  readonly last_seq: number;
}

/**
 * `retry-after` (seconds) of a 429 for too many streams. A slot frees only when one of the caller's
 * own streams ends, which the server cannot predict; this keeps a retry loop from hammering.
 */
export const STREAM_RETRY_AFTER_SECONDS = 5;

/** How the app ends streams when it closes: it aborts `shutdown`, then awaits every tracked stream. */
export interface StreamRouteOptions {
  readonly shutdown: AbortSignal;
  readonly track: (stream: Promise<void>) => void;
}

/** `GET .../events` (one page) and `GET .../stream` (SSE tail of the same rows). */
export function registerEventRoutes(app: FastifyInstance, deps: GatewayDeps, options: StreamRouteOptions): void {
  const slots = new StreamSlots(deps.maxStreamsPerCaller ?? DEFAULT_MAX_STREAMS_PER_CALLER);
  app.get('/api/threads/:threadId/runs/:runId/events', async (request): Promise<EventsPage> => {
    const params = parseInput(RunParamsSchema, request.params, 'path');
    const query = parseInput(EventsQuerySchema, request.query, 'query');
    const run = await findRun(deps.temporal, params.threadId, params.runId, callerOf(request));
    const afterSeq = query.after_seq ?? 0;
    const rows = await deps.events.listEvents({
      runId: run.runId,
      threadId: params.threadId,
      taskId: query.task_id,
      afterSeq,
      limit: query.limit ?? DEFAULT_LIST_EVENTS_LIMIT,
    });
    return { events: rows.map(eventJson), next_after_seq: rows.at(-1)?.seq ?? afterSeq };
  });

  app.get('/api/threads/:threadId/runs/:runId/stream', async (request, reply) => {
    const params = parseInput(RunParamsSchema, request.params, 'path');
    const query = parseInput(StreamQuerySchema, request.query, 'query');
    const header = request.headers['last-event-id'];
    // An EventSource reconnects with the URL it was opened with plus this header, so the header
    // (what the client actually received) wins over `after_seq` (where it first started).
    const afterSeq = header !== undefined ? parseInput(LastEventIdSchema, header, 'Last-Event-ID') : (query.after_seq ?? 0);
    const caller = callerOf(request);
    // Before the lookup, so a caller over the limit costs no Temporal call.
    const release = slots.acquire(caller);
    if (release === null) {
      void reply.header('retry-after', String(STREAM_RETRY_AFTER_SECONDS));
      throw GatewayError.tooManyStreams(slots.limit);
    }
    // The slot frees when the client hangs up, not when the poller notices (it may be mid-read).
    reply.raw.once('close', release);
    try {
      // Look the run up before any byte is sent, so a bad request still gets a JSON error status.
      const run = await findRun(deps.temporal, params.threadId, params.runId, caller);
      const stream = streamRun(deps, run, afterSeq, reply, options.shutdown);
      options.track(stream);
      await stream;
    } finally {
      reply.raw.off('close', release);
      release();
    }
  });
}

async function streamRun(deps: GatewayDeps, run: FoundRun, afterSeq: number, reply: FastifyReply, shutdown: AbortSignal): Promise<void> {
  const log = deps.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  reply.hijack();
  const res = reply.raw;
  const stop = new AbortController();
  const abort = () => stop.abort();
  // `close` on the response (not the request) is what fires when the client disconnects.
  res.once('close', abort);
  shutdown.addEventListener('abort', abort, { once: true });
  const writer = new SseWriter(res);
  writer.open();
  const heartbeat = setInterval(() => void writer.comment('heartbeat'), deps.heartbeatMs ?? DEFAULT_HEARTBEAT_MS);
  let lastSeq = afterSeq;
  try {
    const tail = tailRunEvents({
      events: deps.events,
      runId: run.runId,
      threadId: run.threadId,
      afterSeq,
      isOpen: () => isRunOpen(run.handle),
      pollMs: deps.streamPollMs ?? DEFAULT_STREAM_POLL_MS,
      pollMaxMs: deps.streamPollMaxMs ?? DEFAULT_STREAM_POLL_MAX_MS,
      signal: stop.signal,
    });
    for (;;) {
      const next = await tail.next();
      if (next.done) {
        if (next.value === 'closed') {
          const status = (await run.handle.describe()).status.name;
          const end: StreamEnd = { run_id: run.runId, workflow_status: status, last_seq: lastSeq };
          // No `id:` on `end`: a client that reconnects anyway resumes after the last row, not after `end`.
          await writer.send({ event: 'end', data: end });
        }
        break;
      }
      lastSeq = next.value.seq;
      await writer.send({ id: String(next.value.seq), event: next.value.event, data: eventJson(next.value) });
    }
  } catch (err) {
    // Headers are gone already: report in-band, then close; the client resumes with Last-Event-ID.
    log(`gateway: stream of run ${run.runId} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    await writer.send({ event: 'error', data: { error: { code: 'internal', message: 'the event stream failed; reconnect to resume' } } });
  } finally {
    clearInterval(heartbeat);
    res.off('close', abort);
    shutdown.removeEventListener('abort', abort);
    writer.end();
  }
}
