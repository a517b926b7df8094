import type { RunEventStore } from '../../src/store';
import { DEFAULT_MAX_STREAMS_PER_CALLER, STREAM_RETRY_AFTER_SECONDS } from '../../src/gateway';
import { useTemporal, waitFor } from '../support/use-temporal';
import { runUrl, started, task, tokenAuth, TOKENS, useGateway, type StartedBody, type TestGateway } from './gateway-support';
import { readSse } from './sse-client';

const temporal = useTemporal();
const gateways = useGateway(temporal);

/** A run whose only task takes a minute: after `subagent.start` its stream is idle. */
const slow = {
  lead: [{ tool_calls: [task('Slow', 'Slow: take a minute')] }, { content: 'unreachable' }],
  subagents: [{ match: '*', turns: [{ content: 'late', delay_ms: 60_000 }] }],
};

/** An SSE response held open until `close()` (a client that stays connected). */
interface OpenStream {
  readonly status: number;
  close(): void;
}

async function openStream(gateway: TestGateway, run: StartedBody, token: string): Promise<OpenStream> {
  const controller = new AbortController();
  const response = await fetch(`${gateway.url}${runUrl(run, '/stream')}`, { headers: { authorization: `Bearer ${token}` }, signal: controller.signal });
  // Headers arrive when the stream opens; the body is never read, the client just stays connected.
  return { status: response.status, close: () => controller.abort() };
}

/** `store` with its `listEvents` calls counted. */
function countReads(store: RunEventStore): { readonly store: RunEventStore; reads(): number } {
  let reads = 0;
  const counted = new Proxy(store, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (key !== 'listEvents' || typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        reads += 1;
        return Reflect.apply(value, target, args) as unknown;
      };
    },
  });
  return { store: counted, reads: () => reads };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('a caller may hold 8 streams: the 9th is a 429 with retry-after, other callers are unaffected, and a closed stream frees its slot', async () => {
  const harness = await temporal.start(slow);
  const gateway = await gateways.start(harness, { auth: tokenAuth() });
  const alices = started(await gateway.call('POST', '/api/runs', { body: { message: 'go' }, token: TOKENS.alice }));
  const bobs = started(await gateway.call('POST', '/api/runs', { body: { message: 'go' }, token: TOKENS.bob }));

  const held: OpenStream[] = [];
  try {
    for (let i = 0; i < DEFAULT_MAX_STREAMS_PER_CALLER; i += 1) held.push(await openStream(gateway, alices, TOKENS.alice));
    expect(held.map((s) => s.status)).toEqual(Array.from({ length: 8 }, () => 200));

    const refused = await gateway.call('GET', runUrl(alices, '/stream'), { token: TOKENS.alice });
    expect(refused).toMatchObject({
      status: 429,
      body: { error: { code: 'too_many_requests', message: 'at most 8 event streams may be open at once per caller; close one (or wait for one to end) and retry' } },
    });
    expect(refused.headers.get('retry-after')).toBe(String(STREAM_RETRY_AFTER_SECONDS));
    // The limit counts streams, not requests: Alice's other routes still answer.
    expect((await gateway.call('GET', runUrl(alices, '/events'), { token: TOKENS.alice })).status).toBe(200);

    const bob = await openStream(gateway, bobs, TOKENS.bob);
    held.push(bob);
    expect(bob.status).toBe(200);

    // A client hanging up frees its slot as soon as the server sees the connection close.
    held.shift()?.close();
    let reopened: OpenStream | null = null;
    await waitFor(async () => {
      const attempt = await openStream(gateway, alices, TOKENS.alice);
      if (attempt.status === 200) reopened = attempt;
      return attempt.status === 200;
    }, 2_000);
    if (reopened !== null) held.push(reopened);
    expect((await gateway.call('GET', runUrl(alices, '/stream'), { token: TOKENS.alice })).status).toBe(429);
  } finally {
    for (const stream of held) stream.close();
  }
  const client = temporal.env().client;
  await Promise.all([alices, bobs].map((run) => client.workflow.getHandle(run.workflow_id).cancel()));
});

test('an idle stream reads the store less and less often, yet delivers a new row within the longest pause', async () => {
  const harness = await temporal.start(slow);
  const counted = countReads(harness.stores.events);
  const maxMs = 1_000;
  const gateway = await gateways.start(harness, { events: counted.store, streamPollMs: 20, streamPollMaxMs: maxMs });
  const run = started(await gateway.call('POST', '/api/runs', { body: { message: 'go' } }));
  await waitFor(async () => (await harness.stores.events.listEvents({ runId: run.run_id })).length === 1);

  let pingedAt = 0;
  let deliveredAt = 0;
  const reading = readSse(`${gateway.url}${runUrl(run, '/stream')}`, {
    stop: (blocks) => {
      if (deliveredAt === 0 && blocks.some((b) => b.event === 'test.ping')) deliveredAt = Date.now();
      return deliveredAt !== 0;
    },
  });
  // Let the pause grow to its cap (20 → 40 → ... → 1000 ms takes about 1.3 s), then watch a window.
  await sleep(2_000);
  const before = counted.reads();
  const windowMs = 3_000;
  await sleep(windowMs);
  const idleReads = counted.reads() - before;
  // At a fixed 20 ms pace this window would hold about 150 reads; capped at 1 s it holds about 3.
  expect(idleReads).toBeGreaterThanOrEqual(1);
  expect(idleReads).toBeLessThanOrEqual(windowMs / maxMs + 2);

  pingedAt = Date.now();
  await harness.stores.events.putBatch([{ dedupeKey: 'ping', runId: run.run_id, threadId: run.thread_id, category: 'subagent', event: 'test.ping', taskId: 'probe', payload: {} }]);
  const read = await reading;
  expect(read.ended).toBe(false);
  // The longest pause plus room for one store read and delivery on a loaded machine.
  expect(deliveredAt - pingedAt).toBeLessThan(maxMs + 500);
  await temporal.env().client.workflow.getHandle(run.workflow_id).cancel();
});
