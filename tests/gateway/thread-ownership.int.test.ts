import { DeerFlowClient } from '../../src/client';
import type { Harness } from '../support/harness';
import { useTemporal, waitFor } from '../support/use-temporal';
import { runUrl, started, tokenAuth, TOKENS, useGateway, type StartedBody, type TestGateway } from './gateway-support';
import { readSse } from './sse-client';

const temporal = useTemporal();
const gateways = useGateway(temporal);

const answers = { lead: [{ content: 'Done.', repeat: 'forever' }] };
const BATCHES_ON = { subagent_batches: { enabled: true } };
const batchBody = { title: 'b', subagent_type: 'general-purpose', items: [{ prompt: 'one' }] };

const threadNotFound = (threadId: string) => ({ status: 404, body: { error: { code: 'not_found', message: `thread "${threadId}" not found` } } });
const runNotFound = (threadId: string, runId: string) => ({
  status: 404,
  body: { error: { code: 'not_found', message: `run "${runId}" not found in thread "${threadId}"` } },
});

/** A client on the harness's stores but without the thread store: how runs were started before the threads table. */
function legacyClient(harness: Harness): DeerFlowClient {
  const { stores } = harness;
  return new DeerFlowClient(temporal.env().client, harness.loaded.config, { agents: stores.agents, events: stores.events, batches: stores.batches });
}

/** Every response a caller gets for the run routes of `run`. */
async function runRoutes(gateway: TestGateway, run: StartedBody, token: string): Promise<unknown[]> {
  const stream = await readSse(`${gateway.url}${runUrl(run, '/stream')}`, { headers: { authorization: `Bearer ${token}` } });
  const calls = [
    gateway.call('GET', runUrl(run), { token }),
    gateway.call('GET', runUrl(run, '/events'), { token }),
    gateway.call('POST', runUrl(run, '/cancel'), { token }),
    gateway.call('POST', runUrl(run, '/answer'), { body: { answer: 'x' }, token }),
    gateway.call('POST', runUrl(run, '/tasks/0.0/cancel'), { token }),
  ];
  return [...(await Promise.all(calls)).map(({ status, body }) => ({ status, body })), { status: stream.status, body: JSON.parse(stream.blocks[0]?.data ?? 'null') as unknown }];
}

test('a thread claimed in the store is its owner\'s before Temporal visibility knows of any run', async () => {
  const harness = await temporal.start(answers, BATCHES_ON);
  const gateway = await gateways.start(harness, { auth: tokenAuth() });
  // Claimed directly: no workflow exists, so visibility has nothing that could refuse Bob.
  const claim = await harness.stores.threads.claim('fresh-thread', 'alice', 'run');

  expect(await gateway.call('POST', '/api/runs', { body: { message: 'peek', thread_id: 'fresh-thread' }, token: TOKENS.bob })).toMatchObject(threadNotFound('fresh-thread'));
  expect(await gateway.call('POST', '/api/batches', { body: { ...batchBody, batch_id: 'fresh-thread' }, token: TOKENS.bob })).toMatchObject({
    status: 409,
    body: { error: { code: 'conflict', message: 'batch_id: "fresh-thread" is already in use; choose another or leave batch_id out' } },
  });
  // Whatever run Bob names in it, he gets what a missing run gets.
  const guess = { run_id: 'run_guess', thread_id: 'fresh-thread', workflow_id: 'unused' };
  expect(await runRoutes(gateway, guess, TOKENS.bob)).toEqual(Array.from({ length: 6 }, () => runNotFound('fresh-thread', 'run_guess')));
  expect(await harness.stores.batches.getBatch('fresh-thread', 'bob')).toBeNull();

  const run = started(await gateway.call('POST', '/api/runs', { body: { message: 'mine', thread_id: 'fresh-thread' }, token: TOKENS.alice }));
  await temporal.env().client.workflow.getHandle(run.workflow_id).result();
  expect(await gateway.call('GET', runUrl(run), { token: TOKENS.alice })).toMatchObject({ status: 200, body: { user_id: 'alice' } });
  expect(await harness.stores.threads.get('fresh-thread')).toEqual(claim);
});

test('runs in a thread another user owns are refused on every route, even the caller\'s own', async () => {
  const harness = await temporal.start(answers);
  const gateway = await gateways.start(harness, { auth: tokenAuth() });
  // Bob's run went into the thread unclaimed (as before the threads table); the thread is Alice's.
  const bobs = await legacyClient(harness).startRun({ message: 'hi', threadId: 'alice-owned', userId: 'bob' });
  await bobs.handle.result();
  await harness.stores.threads.claim('alice-owned', 'alice', 'run');
  const run = { run_id: bobs.runId, thread_id: 'alice-owned', workflow_id: bobs.workflowId };

  expect(await runRoutes(gateway, run, TOKENS.bob)).toEqual(Array.from({ length: 6 }, () => runNotFound('alice-owned', bobs.runId)));
  // The unscoped operator sees every thread.
  const operator = await gateways.start(harness);
  expect(await operator.call('GET', runUrl(run))).toMatchObject({ status: 200, body: { user_id: 'bob', workflow_status: 'COMPLETED' } });
});

test('a thread from before the threads table: visibility refuses others until the owner\'s next run records the claim', async () => {
  const harness = await temporal.start(answers);
  const gateway = await gateways.start(harness, { auth: tokenAuth() });
  const old = await legacyClient(harness).startRun({ message: 'old', threadId: 'old-thread', userId: 'alice' });
  await old.handle.result();
  await waitFor(async () => (await temporal.env().client.workflow.count(`DeerflowThreadId = 'old-thread'`)).count === 1);
  expect(await harness.stores.threads.get('old-thread')).toBeNull();

  expect(await gateway.call('POST', '/api/runs', { body: { message: 'peek', thread_id: 'old-thread' }, token: TOKENS.bob })).toMatchObject(threadNotFound('old-thread'));
  // A refusal claims nothing for anyone.
  expect(await harness.stores.threads.get('old-thread')).toBeNull();

  started(await gateway.call('POST', '/api/runs', { body: { message: 'again', thread_id: 'old-thread' }, token: TOKENS.alice }));
  expect(await harness.stores.threads.get('old-thread')).toMatchObject({ threadId: 'old-thread', ownerId: 'alice', kind: 'run' });
  expect(await gateway.call('POST', '/api/runs', { body: { message: 'peek', thread_id: 'old-thread' }, token: TOKENS.bob })).toMatchObject(threadNotFound('old-thread'));
});

test('two users starting in one new thread at once: exactly one gets it', async () => {
  const harness = await temporal.start(answers);
  const gateway = await gateways.start(harness, { auth: tokenAuth() });
  for (let round = 0; round < 3; round += 1) {
    const threadId = `contested-${round}`;
    const [a, b] = await Promise.all(
      [TOKENS.alice, TOKENS.bob].map((token) => gateway.call('POST', '/api/runs', { body: { message: 'mine', thread_id: threadId }, token })),
    );
    expect([a!.status, b!.status].sort()).toEqual([201, 404]);
    const winner = a!.status === 201 ? 'alice' : 'bob';
    expect((await harness.stores.threads.get(threadId))?.ownerId).toBe(winner);
    await temporal.env().client.workflow.getHandle(((a!.status === 201 ? a : b)!.body as StartedBody).workflow_id).result();
  }
});

test('the unscoped operator records the claim for the user it acts as, and cannot mix users in a thread', async () => {
  const harness = await temporal.start(answers, BATCHES_ON);
  const operator = await gateways.start(harness);
  const run = started(await operator.call('POST', '/api/runs', { body: { message: 'for carol', thread_id: 'carol-thread', user_id: 'carol' } }));
  expect(await harness.stores.threads.get('carol-thread')).toMatchObject({ ownerId: 'carol', kind: 'run' });
  await temporal.env().client.workflow.getHandle(run.workflow_id).result();

  expect(await operator.call('POST', '/api/runs', { body: { message: 'as default', thread_id: 'carol-thread' } })).toMatchObject({
    status: 409,
    body: { error: { code: 'conflict', message: 'thread "carol-thread" belongs to user "carol", not "default"' } },
  });
  expect(await operator.call('POST', '/api/batches', { body: { ...batchBody, batch_id: 'carol-thread' } })).toMatchObject({ status: 409 });
  started(await operator.call('POST', '/api/runs', { body: { message: 'as carol', thread_id: 'carol-thread', user_id: 'carol' } }));
  const batch = await operator.call('POST', '/api/batches', { body: { ...batchBody, batch_id: 'dave-batch', user_id: 'dave' } });
  expect(batch).toMatchObject({ status: 201 });
  expect(await harness.stores.threads.get('dave-batch')).toMatchObject({ ownerId: 'dave', kind: 'batch' });
  expect(await operator.call('POST', '/api/runs', { body: { message: 'x', thread_id: 'x', user_id: 'bad\u0001id' } })).toMatchObject({
    status: 400,
    body: { error: { field: 'user_id' } },
  });
});
