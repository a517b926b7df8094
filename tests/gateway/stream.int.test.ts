import type { RunEventStore } from '../../src/store';
import { eventJson, type StreamEnd } from '../../src/gateway';
import { useTemporal, waitFor } from '../support/use-temporal';
import { runUrl, started, task, useGateway } from './gateway-support';
import { messages, readSse, type SseBlock } from './sse-client';

const temporal = useTemporal();
const gateways = useGateway(temporal);

/** Three tasks ending at staggered times, then a second delegation: rows keep arriving for seconds. */
const staggered = {
  lead: [
    { tool_calls: [task('A', 'Alpha: quick'), task('B', 'Beta: medium'), task('C', 'Gamma: slow')] },
    { tool_calls: [task('D', 'Delta: follow-up')] },
    { content: 'All four are done.' },
  ],
  subagents: [
    { match: 'Alpha', turns: [{ content: 'A done' }] },
    { match: 'Beta', turns: [{ tool_calls: [{ name: 'bash', args: { command: 'echo beta' } }], delay_ms: 300 }, { content: 'B done', delay_ms: 300 }] },
    { match: 'Gamma', turns: [{ content: 'C done', delay_ms: 1500 }] },
    { match: 'Delta', turns: [{ content: 'D done', delay_ms: 500 }] },
  ],
};

const slow = {
  lead: [{ tool_calls: [task('Slow', 'Slow: take a minute')] }, { content: 'unreachable' }],
  subagents: [{ match: '*', turns: [{ content: 'late', delay_ms: 60_000 }] }],
};

const rows = (blocks: readonly SseBlock[]) => messages(blocks).filter((b) => b.event !== 'end');
const ids = (blocks: readonly SseBlock[]) => rows(blocks).map((b) => Number(b.id));

test('a stream read in parts with Last-Event-ID and after_seq delivers every row exactly once, then end', async () => {
  const harness = await temporal.start(staggered);
  const gateway = await gateways.start(harness);
  const run = started(await gateway.call('POST', '/api/runs', { body: { message: 'go' } }));
  const url = `${gateway.url}${runUrl(run, '/stream')}`;

  // Part 1: disconnect as soon as the first task has ended, while the others still run.
  const first = await readSse(url, { stop: (blocks) => blocks.some((b) => b.event === 'subagent.end') });
  expect(first).toMatchObject({ status: 200, ended: false, contentType: 'text/event-stream; charset=utf-8' });
  const firstIds = ids(first.blocks);
  expect(firstIds.length).toBeGreaterThan(0);
  // Rows keep being written while nobody listens.
  await new Promise((r) => setTimeout(r, 400));

  // Part 2: resume from the last id received, to the end.
  const second = await readSse(url, { headers: { 'last-event-id': String(firstIds.at(-1)) } });
  expect(second.ended).toBe(true);
  // The run was still going at the disconnect: the second part carries rows of its own.
  expect(rows(second.blocks).some((b) => b.event === 'subagent.end')).toBe(true);
  const last = messages(second.blocks).at(-1);
  expect(last?.event).toBe('end');
  expect(last?.id).toBeUndefined();

  const all = await harness.stores.events.listEvents({ runId: run.run_id });
  const union = [...rows(first.blocks), ...rows(second.blocks)];
  expect(union.map((b) => Number(b.id))).toEqual(all.map((e) => e.seq));
  expect(union.map((b) => b.event)).toEqual(all.map((e) => e.event));
  expect(union.map((b) => JSON.parse(b.data ?? 'null') as unknown)).toEqual(all.map(eventJson));
  expect(all.filter((e) => e.event === 'subagent.end')).toHaveLength(4);
  const end: StreamEnd = { run_id: run.run_id, workflow_status: 'COMPLETED', last_seq: all.at(-1)?.seq ?? -1 };
  expect(JSON.parse(last?.data ?? 'null')).toEqual(end);

  // Once the run has closed: `after_seq` resumes mid-way, the header wins over it, and a caught-up
  // client gets only `end`.
  const middle = all[Math.floor(all.length / 2)]?.seq ?? 0;
  const fromQuery = await readSse(`${url}?after_seq=${middle}`);
  expect(ids(fromQuery.blocks)).toEqual(all.filter((e) => e.seq > middle).map((e) => e.seq));
  const headerWins = await readSse(`${url}?after_seq=0`, { headers: { 'last-event-id': String(middle) } });
  expect(ids(headerWins.blocks)).toEqual(all.filter((e) => e.seq > middle).map((e) => e.seq));
  const caughtUp = await readSse(url, { headers: { 'last-event-id': String(all.at(-1)?.seq) } });
  expect(messages(caughtUp.blocks).map((b) => b.event)).toEqual(['end']);
});

test('heartbeats keep an idle stream alive, and the store poller stops when the client disconnects', async () => {
  const harness = await temporal.start(slow);
  let reads = 0;
  const counting: RunEventStore = {
    putBatch: (events) => harness.stores.events.putBatch(events),
    listEvents: (query) => {
      reads += 1;
      return harness.stores.events.listEvents(query);
    },
  };
  const gateway = await gateways.start(harness, { events: counting, heartbeatMs: 100, streamPollMs: 20 });
  const run = started(await gateway.call('POST', '/api/runs', { body: { message: 'go' } }));
  const read = await readSse(`${gateway.url}${runUrl(run, '/stream')}`, {
    stop: (blocks) => blocks.filter((b) => b.comment === 'heartbeat').length >= 3 && blocks.some((b) => b.event === 'subagent.start'),
  });
  expect(read.ended).toBe(false);
  expect(messages(read.blocks).map((b) => b.event)).toEqual(['subagent.start']);

  await new Promise((r) => setTimeout(r, 200));
  const afterDisconnect = reads;
  await new Promise((r) => setTimeout(r, 500));
  expect(reads).toBe(afterDisconnect);
  expect((await gateway.call('POST', runUrl(run, '/cancel'))).status).toBe(202);
});

test('closing the gateway ends open streams cleanly, without `end`', async () => {
  const harness = await temporal.start(slow);
  const gateway = await gateways.start(harness);
  const run = started(await gateway.call('POST', '/api/runs', { body: { message: 'go' } }));
  await waitFor(async () => (await harness.stores.events.listEvents({ runId: run.run_id })).length === 1);
  const reading = readSse(`${gateway.url}${runUrl(run, '/stream')}`);
  await new Promise((r) => setTimeout(r, 300));
  await gateway.server.close();
  const read = await reading;
  expect(read.ended).toBe(true);
  expect(messages(read.blocks).map((b) => b.event)).toEqual(['subagent.start']);
  await temporal.env().client.workflow.getHandle(run.workflow_id).cancel();
});
