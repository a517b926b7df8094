import type { DeerFlowClient } from '../../src/client';
import type { BatchItemRecord } from '../../src/contracts';
import type { BatchItemsPage, BatchResponse, GatewayDeps, StartBatchResponse } from '../../src/gateway';
import { useTemporal, waitFor } from '../support/use-temporal';
import { started, tokenAuth, TOKENS, useGateway, type JsonResponse, type TestGateway } from './gateway-support';

const temporal = useTemporal();
const gateways = useGateway(temporal);

const BATCHES_ON = { subagent_batches: { enabled: true, poll_interval_seconds: 0.2 } };
const slowSubagents = { subagents: [{ match: '*', turns: [{ content: 'late', delay_ms: 60_000 }] }] };
/** How long to wait for a batch to move: generous, the machine may be busy with other work. */
const PATIENCE_MS = 90_000;
const counts = (over: Record<string, number>) => ({ pending: 0, running: 0, completed: 0, failed: 0, cancelled: 0, timed_out: 0, ...over });

interface ErrorShape {
  readonly error: { readonly code: string; readonly message: string; readonly field?: string };
}

function created(response: JsonResponse): StartBatchResponse {
  expect({ status: response.status, body: response.body }).toMatchObject({ status: 201 });
  return response.body as StartBatchResponse;
}

async function batchOf(gateway: TestGateway, batchId: string, token?: string): Promise<BatchResponse> {
  const response = await gateway.call('GET', `/api/batches/${batchId}`, { token });
  expect(response.status).toBe(200);
  return response.body as BatchResponse;
}

/** Polls the batch until it is no longer running; returns the final body. */
async function finished(gateway: TestGateway, batchId: string, token?: string): Promise<BatchResponse> {
  let body: BatchResponse | null = null;
  await waitFor(async () => {
    body = await batchOf(gateway, batchId, token);
    return body.batch.status !== 'running';
  }, PATIENCE_MS);
  return body as unknown as BatchResponse;
}

async function exportLines(gateway: TestGateway, batchId: string, token: string): Promise<{ status: number; type: string | null; text: string }> {
  const response = await fetch(`${gateway.url}/api/batches/${batchId}/items.jsonl`, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

test('a batch created over HTTP completes with exact counts; its items page by key; the JSONL export has every full record in key order', async () => {
  const keys = ['c', 'a', 'e', 'b', 'd'];
  const harness = await temporal.start(
    { subagents: keys.map((k) => ({ match: `Item ${k}:`, turns: [{ content: `result ${k}`, usage: { input_tokens: 10, output_tokens: 2 } }] })) },
    BATCHES_ON,
  );
  const gateway = await gateways.start(harness, { auth: tokenAuth() });
  const items = keys.map((k) => ({ key: k, prompt: `Item ${k}: summarize it`, acceptance_criteria: ['one line'] }));
  const response = await gateway.call('POST', '/api/batches', {
    body: { title: 'five', subagent_type: 'general-purpose', items, max_live_items: 3, max_running_items: 2 },
    token: TOKENS.alice,
  });
  const batch = created(response);
  expect(batch).toEqual({ batch_id: expect.stringMatching(/^batch_/), workflow_id: `batch:${batch.batch_id}`, item_count: 5 });
  expect(response.headers.get('location')).toBe(`/api/batches/${batch.batch_id}`);

  const final = await finished(gateway, batch.batch_id, TOKENS.alice);
  const allDone = counts({ completed: 5 });
  expect(final.batch).toEqual(await harness.client.getBatch(batch.batch_id, 'alice'));
  expect(final.batch).toMatchObject({
    batch_id: batch.batch_id,
    owner_id: 'alice',
    run_id: null,
    title: 'five',
    subagent_type: 'general-purpose',
    status: 'completed',
    item_count: 5,
    counts: allDone,
    limits: { max_live_items: 3, max_running_items: 2, max_attempts: 3 },
    finished_at: expect.any(String),
  });
  await waitFor(async () => (await batchOf(gateway, batch.batch_id, TOKENS.alice)).state?.status === 'completed', PATIENCE_MS);
  expect((await batchOf(gateway, batch.batch_id, TOKENS.alice)).state).toEqual({
    batchId: batch.batch_id,
    status: 'completed',
    itemCount: 5,
    counts: allDone,
    liveItems: 0,
    runningItems: 0,
    continuedRuns: 0,
  });

  // Two at a time: the cursor walks the keys in order and the last page says null.
  const page = async (query: string) => {
    const r = await gateway.call('GET', `/api/batches/${batch.batch_id}/items${query}`, { token: TOKENS.alice });
    expect(r.status).toBe(200);
    return r.body as BatchItemsPage;
  };
  const pages = [await page('?limit=2'), await page('?limit=2&after_key=b'), await page('?limit=2&after_key=d')];
  expect(pages.map((p) => [p.items.map((i) => i.key), p.next_after_key])).toEqual([
    [['a', 'b'], 'b'],
    [['c', 'd'], 'd'],
    [['e'], null],
  ]);
  const listed = pages.flatMap((p) => p.items);
  expect(listed).toEqual(await harness.client.listBatchItems(batch.batch_id, 'alice', { limit: 10 }));
  for (const item of listed) {
    expect(item).toMatchObject({
      status: 'completed',
      attempts: 1,
      position: keys.indexOf(item.key),
      prompt: `Item ${item.key}: summarize it`,
      acceptance_criteria: ['one line'],
      result_preview: `result ${item.key}`,
      result_preview_truncated: false,
      usage: { input_tokens: 10, output_tokens: 2, total_tokens: 12 },
    });
  }
  // A full page that happens to be the last one still ends the walk.
  expect((await page('?limit=5')).next_after_key).toBeNull();
  expect((await page('')).items).toHaveLength(5);
  const completed = await page('?status=completed&limit=4');
  expect([completed.items.map((i) => i.key), completed.next_after_key]).toEqual([['a', 'b', 'c', 'd'], 'd']);
  expect(await page('?status=failed')).toEqual({ items: [], next_after_key: null });

  const exported = await exportLines(gateway, batch.batch_id, TOKENS.alice);
  expect(exported.status).toBe(200);
  expect(exported.type).toBe('application/x-ndjson; charset=utf-8');
  expect(exported.text.endsWith('}\n')).toBe(true);
  const records = exported.text.trimEnd().split('\n').map((line) => JSON.parse(line) as BatchItemRecord);
  expect(records.map((r) => [r.key, r.status, r.result])).toEqual(['a', 'b', 'c', 'd', 'e'].map((k) => [k, 'completed', `result ${k}`]));
  const stored: BatchItemRecord[] = [];
  for await (const record of harness.client.exportBatchItems(batch.batch_id, 'alice')) stored.push(record);
  expect(records).toEqual(stored);
});

test('a bad item rejects the whole request with a 400 naming it, and nothing is stored', async () => {
  const harness = await temporal.start({}, { subagent_batches: { enabled: true, max_items_per_batch: 3 } });
  const gateway = await gateways.start(harness);
  const base = { title: 't', subagent_type: 'general-purpose' };
  const refused = async (body: unknown) => {
    const response = await gateway.call('POST', '/api/batches', { body });
    expect(response.status).toBe(400);
    return (response.body as ErrorShape).error;
  };

  const rejected: Array<[string, Record<string, unknown>, { field: string; message: string }]> = [
    ['bad-1', { items: [{ prompt: 'fine' }, { prompt: '   ' }] }, { field: 'items.1.prompt', message: 'items.1.prompt: must not be empty' }],
    [
      'bad-2',
      { items: [{ key: 'k', prompt: 'a' }, { key: 'k', prompt: 'b' }] },
      { field: 'items.1.key', message: 'items.1.key: duplicate key "k" (first at items.0)' },
    ],
    [
      'bad-3',
      { items: [{ key: 'k', prompt: 'a' }, { prompt: 'b' }] },
      { field: 'items.1.key', message: 'items.1.key: give every item a key, or none (they are then numbered)' },
    ],
    [
      'bad-4',
      { items: Array.from({ length: 4 }, () => ({ prompt: 'x' })) },
      { field: 'items', message: 'items: 4 items is more than subagent_batches.max_items_per_batch (3)' },
    ],
    ['bad-5', { items: [{ prompt: 'x' }], model: 'gpt-9' }, { field: 'model', message: 'model: "gpt-9" is not a configured model' }],
  ];
  for (const [batchId, body, error] of rejected) {
    expect(await refused({ ...base, batch_id: batchId, ...body })).toEqual({ code: 'bad_request', ...error });
  }
  expect(await refused({ ...base, batch_id: 'bad-6', subagent_type: 'nobody', items: [{ prompt: 'x' }] })).toMatchObject({
    field: 'subagent_type',
    message: expect.stringMatching(/^subagent_type: "nobody" is not an available subagent \(available: .*general-purpose/),
  });
  // Every problem is reported, under the body's names.
  expect(await refused({ ...base, batch_id: 'bad-7', user_id: 'bad\u0001id', items: [{ prompt: 'x' }, { prompt: ' ' }] })).toEqual({
    code: 'bad_request',
    field: 'user_id',
    message: 'user_id: must have no control characters and no surrounding spaces; items.1.prompt: must not be empty',
  });
  for (const batchId of ['bad-1', 'bad-2', 'bad-3', 'bad-4', 'bad-5', 'bad-6', 'bad-7']) {
    const missing = { status: 404, body: { error: { code: 'not_found', message: `batch "${batchId}" not found` } } };
    expect(await gateway.call('GET', `/api/batches/${batchId}`)).toMatchObject(missing);
    expect(await gateway.call('GET', `/api/batches/${batchId}/items`)).toMatchObject(missing);
    expect(await harness.stores.batches.getBatch(batchId, 'default')).toBeNull();
  }

  // The shape is checked before the client sees the request.
  expect(await refused({ ...base, items: [] })).toEqual({ code: 'bad_request', field: 'items', message: 'items: must not be empty' });
  expect(await refused({ subagent_type: 'general-purpose', items: [{ prompt: 'x' }] })).toMatchObject({ field: 'title', message: 'title: is required' });
  expect(await refused({ ...base, items: [{ prompt: 'x', extra: 1 }] })).toMatchObject({ field: 'items.0.extra', message: 'items.0.extra: unknown field' });
  expect(await refused({ ...base, items: [{ prompt: 3 }] })).toMatchObject({ field: 'items.0.prompt' });
  expect(await refused({ ...base, items: [{ prompt: 'x', acceptance_criteria: 'all' }] })).toMatchObject({ field: 'items.0.acceptance_criteria' });
  expect(await refused({ ...base, items: [{ prompt: 'x' }], max_running_items: 0 })).toMatchObject({ field: 'max_running_items' });
  expect(await refused({ ...base, items: [{ prompt: 'x' }], batch_id: '../up' })).toMatchObject({ field: 'batch_id' });
  expect(await refused({ ...base, items: [{ prompt: 'x' }], subagentType: 'bash' })).toMatchObject({ field: 'subagentType', message: 'subagentType: unknown field' });
  const query = async (path: string) => ((await gateway.call('GET', path)).body as ErrorShape).error;
  expect(await query('/api/batches/.hidden')).toMatchObject({ code: 'bad_request', field: 'batch_id' });
  expect(await query('/api/batches/b1/items?limit=1001')).toEqual({ code: 'bad_request', field: 'limit', message: 'limit: must be <= 1000' });
  expect(await query('/api/batches/b1/items?limit=0')).toMatchObject({ field: 'limit' });
  expect(await query('/api/batches/b1/items?status=done')).toMatchObject({ field: 'status', message: expect.stringContaining('pending, running, completed') });
  expect(await query('/api/batches/b1/items?after_key=')).toMatchObject({ field: 'after_key' });
  expect(await query('/api/batches/b1/items?afterKey=a')).toMatchObject({ field: 'afterKey', message: 'afterKey: unknown field' });
});

test('with batches turned off in config, POST /api/batches is a 400 saying so', async () => {
  const harness = await temporal.start({});
  const gateway = await gateways.start(harness);
  const response = await gateway.call('POST', '/api/batches', { body: { title: 't', subagent_type: 'general-purpose', items: [{ prompt: 'x' }] } });
  expect(response).toMatchObject({ status: 400 });
  expect(response.body).toEqual({
    error: { code: 'bad_request', message: 'subagent_batches.enabled: batches are turned off (set it to true in config.yaml)' },
  });
});

test("another user gets 404 for every route of a batch, cannot take its id or its thread, and the loopback operator sees it", async () => {
  const harness = await temporal.start({ lead: [{ content: 'hello' }], subagents: [{ match: '*', turns: [{ content: 'ok' }] }] }, BATCHES_ON);
  const gateway = await gateways.start(harness, { auth: tokenAuth() });
  const body = { title: 'private', subagent_type: 'general-purpose', items: [{ prompt: 'secret one' }, { prompt: 'secret two' }] };
  const batch = created(await gateway.call('POST', '/api/batches', { body, token: TOKENS.alice }));
  const done = await finished(gateway, batch.batch_id, TOKENS.alice);
  expect(done.batch).toMatchObject({ owner_id: 'alice', status: 'completed', counts: counts({ completed: 2 }) });

  // Bob sees exactly what anyone sees for a batch that does not exist.
  const missing = { status: 404, body: { error: { code: 'not_found', message: `batch "${batch.batch_id}" not found` } } };
  expect(await gateway.call('GET', `/api/batches/${batch.batch_id}`, { token: TOKENS.bob })).toMatchObject(missing);
  expect(await gateway.call('GET', `/api/batches/${batch.batch_id}/items`, { token: TOKENS.bob })).toMatchObject(missing);
  expect(await gateway.call('POST', `/api/batches/${batch.batch_id}/cancel`, { token: TOKENS.bob })).toMatchObject(missing);
  const bobExport = await exportLines(gateway, batch.batch_id, TOKENS.bob);
  expect(bobExport).toMatchObject({ status: 404, type: 'application/json; charset=utf-8' });
  expect(JSON.parse(bobExport.text)).toEqual(missing.body);
  expect(await gateway.call('GET', '/api/batches/no-such-batch', { token: TOKENS.alice })).toMatchObject({
    status: 404,
    body: { error: { code: 'not_found', message: 'batch "no-such-batch" not found' } },
  });
  // Alice's own reads are unaffected, and cancelling a finished batch changes nothing.
  expect((await exportLines(gateway, batch.batch_id, TOKENS.alice)).text.trimEnd().split('\n')).toHaveLength(2);
  expect(await gateway.call('POST', `/api/batches/${batch.batch_id}/cancel`, { token: TOKENS.alice })).toMatchObject({
    status: 200,
    body: { batch_id: batch.batch_id, cancelled_items: 0, counts: counts({ completed: 2 }) },
  });

  // Batch ids and thread ids share one namespace (a batch's items work in the thread of its id).
  const inUse = (id: string) => ({ status: 409, body: { error: { code: 'conflict', message: `batch_id: "${id}" is already in use; choose another or leave batch_id out` } } });
  expect(await gateway.call('POST', '/api/batches', { body: { ...body, batch_id: batch.batch_id }, token: TOKENS.bob })).toMatchObject(inUse(batch.batch_id));
  expect(await gateway.call('POST', '/api/batches', { body: { ...body, title: 'other', batch_id: batch.batch_id }, token: TOKENS.alice })).toMatchObject(
    inUse(batch.batch_id),
  );
  const run = started(await gateway.call('POST', '/api/runs', { body: { message: 'hi', thread_id: 'alice-thread' }, token: TOKENS.alice }));
  const client = temporal.env().client;
  await waitFor(async () => (await client.workflow.count(`DeerflowThreadId = 'alice-thread'`)).count === 1);
  expect(await gateway.call('POST', '/api/batches', { body: { ...body, batch_id: 'alice-thread' }, token: TOKENS.bob })).toMatchObject(inUse('alice-thread'));
  await waitFor(async () => (await client.workflow.count(`DeerflowBatchId = '${batch.batch_id}' AND WorkflowType = 'batchWorkflow'`)).count >= 1);
  expect(await gateway.call('POST', '/api/runs', { body: { message: 'peek', thread_id: batch.batch_id }, token: TOKENS.bob })).toMatchObject({
    status: 404,
    body: { error: { code: 'not_found', message: `thread "${batch.batch_id}" not found` } },
  });
  expect(await harness.stores.batches.getBatch('alice-thread', 'bob')).toBeNull();
  // Alice may batch in her own thread.
  await client.workflow.getHandle(run.workflow_id).result();
  const own = created(await gateway.call('POST', '/api/batches', { body: { ...body, batch_id: 'alice-thread' }, token: TOKENS.alice }));
  expect(own.batch_id).toBe('alice-thread');
  expect((await finished(gateway, 'alice-thread', TOKENS.alice)).batch.counts).toEqual(counts({ completed: 2 }));

  // Without tokens the loopback operator sees every batch, and may start one for a user.
  const operator = await gateways.start(harness);
  expect((await batchOf(operator, batch.batch_id)).batch).toEqual(done.batch);
  expect(((await operator.call('GET', `/api/batches/${batch.batch_id}/items`)).body as BatchItemsPage).items.map((i) => i.key)).toEqual(['000001', '000002']);
  const forCarol = created(await operator.call('POST', '/api/batches', { body: { ...body, user_id: 'carol' } }));
  expect((await finished(operator, forCarol.batch_id)).batch).toMatchObject({ owner_id: 'carol', counts: counts({ completed: 2 }) });
  expect(await gateway.call('GET', `/api/batches/${forCarol.batch_id}`, { token: TOKENS.alice })).toMatchObject({ status: 404 });
});

test('the owner cancels a running batch: 200 once every item is cancelled; the other user cannot', async () => {
  const harness = await temporal.start(slowSubagents, { ...BATCHES_ON, subagent_runtime: { max_running: 2 } });
  const gateway = await gateways.start(harness, { auth: tokenAuth() });
  const items = Array.from({ length: 6 }, (_, i) => ({ prompt: `Item ${i}` }));
  const batch = created(
    await gateway.call('POST', '/api/batches', {
      body: { title: 'to cancel', subagent_type: 'general-purpose', items, max_live_items: 4, max_running_items: 2 },
      token: TOKENS.alice,
    }),
  );
  await waitFor(async () => (await harness.stores.events.listEvents({ runId: batch.batch_id, eventTypes: ['subagent.start'] })).length === 2, PATIENCE_MS);
  const running = await batchOf(gateway, batch.batch_id, TOKENS.alice);
  expect(running.batch.status).toBe('running');
  expect(running.state).toMatchObject({ status: 'running', itemCount: 6, runningItems: 2 });

  expect(await gateway.call('POST', `/api/batches/${batch.batch_id}/cancel`, { token: TOKENS.bob })).toMatchObject({ status: 404 });
  expect((await batchOf(gateway, batch.batch_id, TOKENS.alice)).batch.status).toBe('running');

  const allCancelled = counts({ cancelled: 6 });
  const cancel = await gateway.call('POST', `/api/batches/${batch.batch_id}/cancel`, { token: TOKENS.alice });
  expect(cancel).toMatchObject({ status: 200 });
  expect(cancel.body).toEqual({ batch_id: batch.batch_id, cancelled_items: 6, counts: allCancelled });
  const after = await batchOf(gateway, batch.batch_id, TOKENS.alice);
  expect(after.batch).toMatchObject({ status: 'cancelled', counts: allCancelled, finished_at: expect.any(String) });
  const listed = (await gateway.call('GET', `/api/batches/${batch.batch_id}/items`, { token: TOKENS.alice })).body as BatchItemsPage;
  expect(listed.items.map((i) => i.status)).toEqual(Array.from({ length: 6 }, () => 'cancelled'));
  expect(listed.items.every((i) => i.result_preview === null)).toBe(true);

  expect((await gateway.call('POST', `/api/batches/${batch.batch_id}/cancel`, { token: TOKENS.alice })).body).toEqual({
    batch_id: batch.batch_id,
    cancelled_items: 0,
    counts: allCancelled,
  });
  await waitFor(async () => (await batchOf(gateway, batch.batch_id, TOKENS.alice)).state?.status === 'cancelled', PATIENCE_MS);
  expect((await batchOf(gateway, batch.batch_id, TOKENS.alice)).batch.counts).toEqual(allCancelled);
});

/** The harness client, with an export that never ends on its own and reports when it is closed. */
function endlessExports(client: DeerFlowClient, watch: { pulled: number; closed: boolean }): GatewayDeps['deerflow'] {
  async function* endless(batchId: string, ownerId: string): AsyncGenerator<BatchItemRecord> {
    try {
      for (;;) {
        for await (const item of client.exportBatchItems(batchId, ownerId)) {
          watch.pulled += 1;
          yield item;
        }
      }
    } finally {
      watch.closed = true;
    }
  }
  return new Proxy(client, { get: (target, prop, receiver) => (prop === 'exportBatchItems' ? endless : Reflect.get(target, prop, receiver)) });
}

test('a 5,000-item body fits (a larger one is 413); an export the client abandons stops reading', async () => {
  const harness = await temporal.start(slowSubagents, BATCHES_ON);
  const watch = { pulled: 0, closed: false };
  const gateway = await gateways.start(harness, { auth: tokenAuth(), deerflow: endlessExports(harness.client, watch) });
  const body = (promptChars: number) => ({
    title: 'big',
    subagent_type: 'general-purpose',
    max_live_items: 1,
    max_running_items: 1,
    items: Array.from({ length: 5000 }, (_, i) => ({ prompt: `Item ${i}: ${'x'.repeat(promptChars)}` })),
  });
  expect(JSON.stringify(body(3000)).length).toBeGreaterThan(15_000_000);
  const batch = created(await gateway.call('POST', '/api/batches', { body: body(3000), token: TOKENS.alice }));
  expect(batch.item_count).toBe(5000);
  expect(await gateway.call('POST', `/api/batches/${batch.batch_id}/cancel`, { token: TOKENS.alice })).toMatchObject({
    status: 200,
    body: { cancelled_items: 5000, counts: counts({ cancelled: 5000 }) },
  });

  expect(await gateway.call('POST', '/api/batches', { body: body(3400), token: TOKENS.alice })).toMatchObject({
    status: 413,
    body: { error: { code: 'payload_too_large', field: 'body', message: 'body: larger than 16777216 bytes' } },
  });
  // The raised limit is this route's alone.
  expect(await gateway.call('POST', '/api/runs', { body: { message: 'x'.repeat(1_100_000) }, token: TOKENS.alice })).toMatchObject({
    status: 413,
    body: { error: { message: 'body: larger than 1048576 bytes' } },
  });

  // Read the first line of an export that would never end, then hang up: the route stops pulling.
  const abort = new AbortController();
  const response = await fetch(`${gateway.url}/api/batches/${batch.batch_id}/items.jsonl`, {
    headers: { authorization: `Bearer ${TOKENS.alice}` },
    signal: abort.signal,
  });
  expect(response.status).toBe(200);
  if (response.body === null) throw new Error('the export has no body');
  const reader = response.body.getReader();
  let text = '';
  while (!text.includes('\n')) {
    const chunk = await reader.read();
    if (chunk.done) break;
    text += new TextDecoder().decode(chunk.value);
  }
  expect(JSON.parse(text.slice(0, text.indexOf('\n')))).toMatchObject({ key: '000001', position: 0, status: 'cancelled', result: null });
  abort.abort();
  await waitFor(async () => watch.closed);
  const pulled = watch.pulled;
  await new Promise((r) => setTimeout(r, 200));
  expect(watch.pulled).toBe(pulled);
});
