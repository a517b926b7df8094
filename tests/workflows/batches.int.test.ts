import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BatchItemRecord } from '../../src/contracts';
import { workspaceFolderName } from '../../src/tools';
import { useTemporal, waitFor } from '../support/use-temporal';

const temporal = useTemporal();

const BATCHES_ON = { subagent_batches: { enabled: true, poll_interval_seconds: 0.2 } };

async function allItems(items: AsyncIterable<BatchItemRecord>): Promise<BatchItemRecord[]> {
  const out: BatchItemRecord[] = [];
  for await (const item of items) out.push(item);
  return out;
}

test('a 50-item batch completes every item exactly once with exact counts', async () => {
  const h = await temporal.start(
    { subagents: [{ match: '/Item (\\d+)/', turns: [{ content: 'done with the item', usage: { input_tokens: 10, output_tokens: 2 } }] }] },
    { ...BATCHES_ON, subagent_runtime: { max_running: 4 } },
  );
  const items = Array.from({ length: 50 }, (_, i) => ({ prompt: `Item ${i + 1}: summarize it` }));
  const started = await h.client.startBatch({ title: 'fifty', subagentType: 'general-purpose', items, ownerId: 'alice', maxLiveItems: 10, maxRunningItems: 4 });
  const final = await started.handle.result();

  expect(final).toMatchObject({ status: 'completed', itemCount: 50, liveItems: 0, runningItems: 0 });
  expect(final.counts).toEqual({ pending: 0, running: 0, completed: 50, failed: 0, cancelled: 0, timed_out: 0 });
  const batch = await h.client.getBatch(started.batchId, 'alice');
  expect(batch).toMatchObject({ status: 'completed', item_count: 50, counts: final.counts });
  expect(batch?.finished_at).not.toBeNull();

  const stored = await allItems(h.client.exportBatchItems(started.batchId, 'alice'));
  expect(stored.map((i) => i.key)).toEqual(Array.from({ length: 50 }, (_, i) => String(i + 1).padStart(6, '0')));
  for (const item of stored) {
    expect(item).toMatchObject({ status: 'completed', attempts: 1, result: 'done with the item', stop_reason: null, error: null });
    expect(item.usage).toEqual({ input_tokens: 10, output_tokens: 2, total_tokens: 12 });
    expect(item.attempt_history).toEqual([]);
  }
  // One model call per item, and one start and one end event per item.
  expect(h.recorder.requests).toHaveLength(50);
  const ends = await h.stores.events.listEvents({ runId: started.batchId, eventTypes: ['subagent.end'], limit: 500 });
  expect(ends).toHaveLength(50);
  expect(new Set(ends.map((e) => e.taskId)).size).toBe(50);
});

/** The most model calls that were in flight at once. */
function mostAtOnce(spans: ReadonlyArray<{ start: number; end: number }>): number {
  const edges = spans.flatMap((s) => [
    [s.start, 1],
    [s.end, -1],
  ]);
  // An end and a start at the same ms: the end first (the slot was free again).
  edges.sort((x, y) => x[0]! - y[0]! || x[1]! - y[1]!);
  let now = 0;
  let most = 0;
  for (const [, delta] of edges) {
    now += delta!;
    most = Math.max(most, now);
  }
  return most;
}

test("max_running_items bounds a batch's executions below the worker's slots, and is reached", async () => {
  const h = await temporal.start(
    { subagents: [{ match: '*', turns: [{ content: 'done', delay_ms: 400 }] }] },
    { ...BATCHES_ON, subagent_runtime: { max_running: 6 } },
  );
  const items = Array.from({ length: 8 }, (_, i) => ({ prompt: `Item ${i}` }));
  const started = await h.client.startBatch({ title: 'bounded', subagentType: 'general-purpose', items, ownerId: 'alice', maxLiveItems: 8, maxRunningItems: 2 });
  const final = await started.handle.result();
  expect(final.counts.completed).toBe(8);
  expect(h.recorder.spans).toHaveLength(8);
  expect(mostAtOnce(h.recorder.spans)).toBe(2);
});

test("an item whose subagent outlasts its timeout ends timed_out: the cap runs from the lease, not the activity's start-to-close", async () => {
  const h = await temporal.start(
    { subagents: [{ match: '*', turns: [{ content: 'too late', delay_ms: 4000 }] }] },
    {
      subagent_batches: { enabled: true, poll_interval_seconds: 0.2, max_attempts: 1 },
      subagents: { custom_agents: { slowpoke: { description: 'Takes its time.', system_prompt: 'Be slow.', timeout_seconds: 1 } } },
    },
  );
  const started = await h.client.startBatch({ title: 'slow', subagentType: 'slowpoke', ownerId: 'ivy', items: [{ key: 'a', prompt: 'slow item' }] });
  const final = await started.handle.result();
  expect(final.counts).toMatchObject({ timed_out: 1, completed: 0 });
  expect(await h.stores.batches.getItem(started.batchId, 'ivy', 'a')).toMatchObject({
    status: 'timed_out',
    attempts: 1,
    error: 'Execution timed out after 1 seconds',
    result: null,
  });
});

test('an item whose first attempt fails succeeds on the second, with both attempts on its row', async () => {
  const h = await temporal.start(
    {
      subagents: [
        { match: 'flaky', attempt: 1, turns: [{ error: '400 the model refused this request' }] },
        { match: '*', turns: [{ content: 'fine' }] },
      ],
    },
    BATCHES_ON,
  );
  const started = await h.client.startBatch({
    title: 'retry',
    subagentType: 'general-purpose',
    ownerId: 'bob',
    items: [
      { key: 'a', prompt: 'steady item' },
      { key: 'b', prompt: 'flaky item' },
    ],
  });
  const final = await started.handle.result();
  expect(final.counts).toMatchObject({ completed: 2, failed: 0 });

  const flaky = await h.stores.batches.getItem(started.batchId, 'bob', 'b');
  expect(flaky).toMatchObject({ status: 'completed', attempts: 2, result: 'fine', error: null });
  expect(flaky?.attempt_history).toEqual([{ attempt: 1, outcome: 'failed', error: expect.stringContaining('the model refused this request'), at: expect.any(String) }]);
  expect(await h.stores.batches.getItem(started.batchId, 'bob', 'a')).toMatchObject({ status: 'completed', attempts: 1 });
});

test('an item that fails on every attempt ends failed after max_attempts with the last error', async () => {
  const h = await temporal.start({ subagents: [{ match: '*', turns: [{ error: '400 always broken' }] }] }, {
    subagent_batches: { enabled: true, poll_interval_seconds: 0.1, max_attempts: 2 },
  });
  const started = await h.client.startBatch({ title: 'doomed', subagentType: 'general-purpose', ownerId: 'bob', items: [{ key: 'x', prompt: 'anything' }] });
  const final = await started.handle.result();
  expect(final).toMatchObject({ status: 'completed', counts: { failed: 1, completed: 0 } });
  const item = await h.stores.batches.getItem(started.batchId, 'bob', 'x');
  expect(item).toMatchObject({ status: 'failed', attempts: 2 });
  expect(item?.error).toContain('always broken');
  expect(item?.error).toContain('attempt 2 of 2');
  expect(item?.attempt_history.map((a) => [a.attempt, a.outcome])).toEqual([[1, 'failed']]);
});

test('a try that finds its batch full for a whole lease waits and tries again without using an attempt', async () => {
  // One running lease, two worker slots: b's try takes a slot and waits for a's lease, which a holds
  // longer than the 10 s lease wait (lease_seconds at its minimum).
  const h = await temporal.start(
    { subagents: [{ match: '*', turns: [{ content: 'slow done', delay_ms: 11_000 }] }] },
    { subagent_batches: { enabled: true, poll_interval_seconds: 0.2, lease_seconds: 10, max_attempts: 1 }, subagent_runtime: { max_running: 2 } },
  );
  const started = await h.client.startBatch({
    title: 'contended',
    subagentType: 'general-purpose',
    ownerId: 'carol',
    maxRunningItems: 1,
    items: [
      { key: 'a', prompt: 'slow item' },
      { key: 'b', prompt: 'slow item' },
    ],
  });
  const final = await started.handle.result();
  // max_attempts is 1: had the wait used the attempt, the item would have failed.
  expect(final.counts).toMatchObject({ completed: 2, failed: 0 });
  const items = await h.stores.batches.listItems(started.batchId, 'carol', { limit: 10 });
  expect(items.map((i) => [i.key, i.status, i.attempts])).toEqual([
    ['a', 'completed', 1],
    ['b', 'completed', 1],
  ]);
  // The item that waited is the one that ran second; the first never waited.
  const [first, second] = [...items].sort((x, y) => x.attempt_history.length - y.attempt_history.length);
  expect(first!.attempt_history).toEqual([]);
  expect(second!.attempt_history.length).toBeGreaterThan(0);
  for (const entry of second!.attempt_history) {
    expect(entry).toMatchObject({ attempt: 1, outcome: 'capacity_timeout', error: 'Timed out after 10s waiting for a subagent execution slot' });
  }
  // The runs never overlapped: the second started after the first ended.
  const runs = await h.stores.events.listEvents({ runId: started.batchId, eventTypes: ['subagent.start', 'subagent.end'] });
  expect(runs.map((e) => [e.event, e.taskId])).toEqual([
    ['subagent.start', first!.key],
    ['subagent.end', first!.key],
    ['subagent.start', second!.key],
    ['subagent.end', second!.key],
  ]);
  expect(h.recorder.requests).toHaveLength(2);
});

test('cancelBatch cancels every nonterminal item at once; nothing completes after it returned', async () => {
  const h = await temporal.start({ subagents: [{ match: '*', turns: [{ content: 'late', delay_ms: 60_000 }] }] }, {
    ...BATCHES_ON,
    subagent_runtime: { max_running: 2 },
  });
  const items = Array.from({ length: 12 }, (_, i) => ({ prompt: `Item ${i}` }));
  const started = await h.client.startBatch({ title: 'to cancel', subagentType: 'general-purpose', ownerId: 'dave', items, maxLiveItems: 4, maxRunningItems: 2 });
  await waitFor(async () => (await h.stores.events.listEvents({ runId: started.batchId, eventTypes: ['subagent.start'] })).length === 2);

  await expect(h.client.cancelBatch(started.batchId, 'mallory')).rejects.toThrow(`batch ${started.batchId} not found`);
  const result = await h.client.cancelBatch(started.batchId, 'dave');
  expect(result.cancelledItems).toBe(12);
  expect(result.counts).toEqual({ pending: 0, running: 0, completed: 0, failed: 0, cancelled: 12, timed_out: 0 });
  const after = await h.client.getBatch(started.batchId, 'dave');
  expect(after).toMatchObject({ status: 'cancelled', counts: result.counts });

  const final = await started.handle.result();
  expect(final).toMatchObject({ status: 'cancelled', counts: result.counts, liveItems: 0 });
  // The two running subagents were cancelled (their end events say so); none ever completed.
  const ends = await h.stores.events.listEvents({ runId: started.batchId, eventTypes: ['subagent.end'] });
  expect(ends.map((e) => (e.payload as { status: string }).status)).toEqual(['cancelled', 'cancelled']);
  expect((await h.client.getBatch(started.batchId, 'dave'))?.counts).toEqual(result.counts);
});

test("another owner reads nothing of a batch", async () => {
  const h = await temporal.start({ subagents: [{ match: '*', turns: [{ content: 'ok' }] }] }, BATCHES_ON);
  const started = await h.client.startBatch({ title: 'private', subagentType: 'general-purpose', ownerId: 'erin', items: [{ prompt: 'secret' }] });
  await started.handle.result();
  expect(await h.client.getBatch(started.batchId, 'erin')).not.toBeNull();
  expect(await h.client.getBatch(started.batchId, 'frank')).toBeNull();
  expect(await h.client.listBatchItems(started.batchId, 'frank', { limit: 10 })).toEqual([]);
  expect(await allItems(h.client.exportBatchItems(started.batchId, 'frank'))).toEqual([]);
});

test('a bad item rejects the whole request before anything is stored', async () => {
  const h = await temporal.start({}, { subagent_batches: { enabled: true, max_items_per_batch: 3 } });
  const base = { title: 't', subagentType: 'general-purpose', ownerId: 'gina' };
  await expect(h.client.startBatch({ ...base, batchId: 'bad-1', items: [{ prompt: 'ok' }, { prompt: '   ' }] })).rejects.toThrow('items.1.prompt: must not be empty');
  await expect(
    h.client.startBatch({ ...base, batchId: 'bad-2', items: [{ key: 'k', prompt: 'a' }, { key: 'k', prompt: 'b' }] }),
  ).rejects.toThrow('items.1.key: duplicate key "k" (first at items.0)');
  await expect(h.client.startBatch({ ...base, batchId: 'bad-3', items: Array.from({ length: 4 }, () => ({ prompt: 'x' })) })).rejects.toThrow(
    'items: 4 items is more than subagent_batches.max_items_per_batch (3)',
  );
  await expect(h.client.startBatch({ ...base, batchId: 'bad-4', subagentType: 'nobody', items: [{ prompt: 'x' }] })).rejects.toThrow(
    'subagent_type: "nobody" is not an available subagent',
  );
  for (const id of ['bad-1', 'bad-2', 'bad-3', 'bad-4']) expect(await h.client.getBatch(id, 'gina')).toBeNull();
});

test('a batch continues as new before its history grows large, without losing or repeating an item', async () => {
  const h = await temporal.start({ subagents: [{ match: '*', turns: [{ content: 'ok' }] }] }, { ...BATCHES_ON, subagent_runtime: { max_running: 4 } });
  const items = Array.from({ length: 60 }, (_, i) => ({ prompt: `Item ${i}` }));
  const started = await h.client.startBatch({ title: 'long', subagentType: 'general-purpose', items, ownerId: 'hal', maxLiveItems: 8, maxRunningItems: 4, historyEventLimit: 100 });
  const final = await started.handle.result();
  expect(final.continuedRuns).toBeGreaterThanOrEqual(2);
  expect(final.counts).toEqual({ pending: 0, running: 0, completed: 60, failed: 0, cancelled: 0, timed_out: 0 });
  expect(h.recorder.requests).toHaveLength(60);
  // Every run of the chain stopped starting items at the limit: its history stays near it.
  const client = temporal.env().client;
  const runs: number[] = [];
  for await (const execution of client.workflow.list({ query: `WorkflowId = "${started.workflowId}"` })) {
    const history = await client.workflow.getHandle(started.workflowId, execution.runId).fetchHistory();
    runs.push(history.events?.length ?? 0);
  }
  expect(runs.length).toBe(final.continuedRuns + 1);
  expect(Math.max(...runs)).toBeLessThan(400);
});

test('starting the same batch again returns it and never runs it a second time', async () => {
  const h = await temporal.start({ subagents: [{ match: '*', turns: [{ content: 'ok' }] }] }, BATCHES_ON);
  const request = { batchId: 'once', title: 'once', subagentType: 'general-purpose', ownerId: 'jan', items: [{ prompt: 'only item' }] };
  const first = await h.client.startBatch(request);
  await first.handle.result();
  const firstRun = (await first.handle.describe()).runId;
  const again = await h.client.startBatch(request);
  expect(again.workflowId).toBe(first.workflowId);
  // The latest run of the id is still the first one: no second run was started.
  expect((await again.handle.describe()).runId).toBe(firstRun);
  const runs: string[] = [];
  for await (const execution of temporal.env().client.workflow.list({ query: `WorkflowId = "${first.workflowId}"` })) runs.push(execution.runId);
  expect(runs).toHaveLength(1);
  expect(h.recorder.requests).toHaveLength(1);
});

test('each batch item works in its own folder under the batch, which the thread owner can read', async () => {
  const writes = (text: string) => [
    { tool_calls: [{ name: 'write_file', args: { path: '/mnt/user-data/outputs/result.md', content: text } }] },
    { content: 'written' },
  ];
  const h = await temporal.start(
    { subagents: [{ match: 'first', turns: writes('from the first item') }, { match: 'second', turns: writes('from the second item') }] },
    BATCHES_ON,
  );
  const started = await h.client.startBatch({
    title: 'own folders',
    subagentType: 'general-purpose',
    ownerId: 'carol',
    items: [
      { key: 'one', prompt: 'the first item' },
      // A key that is no safe folder name still gets its own folder, named by its hash.
      { key: '../two', prompt: 'the second item' },
    ],
  });
  expect((await started.handle.result()).counts).toMatchObject({ completed: 2 });

  const batchRoot = join(h.loaded.config.store.data_dir, 'threads', started.batchId, 'user-data', 'batches', started.batchId);
  expect(readFileSync(join(batchRoot, 'one', 'outputs', 'result.md'), 'utf8')).toBe('from the first item');
  expect(readFileSync(join(batchRoot, workspaceFolderName('../two'), 'outputs', 'result.md'), 'utf8')).toBe('from the second item');
  expect(readdirSync(batchRoot).sort()).toEqual(['one', workspaceFolderName('../two')].sort());
  expect(existsSync(join(h.loaded.config.store.data_dir, 'threads', started.batchId, 'user-data', 'outputs', 'result.md'))).toBe(false);
});
