import type { LeadRunState } from '../../src/contracts';
import type { EventJson, EventsPage } from '../../src/gateway';
import { useTemporal, waitFor } from '../support/use-temporal';
import { runUrl, started, task, useGateway, type TestGateway, type StartedBody } from './gateway-support';

const temporal = useTemporal();
const gateways = useGateway(temporal);

const twoTasks = {
  lead: [
    { tool_calls: [task('Count files', 'Alpha: write two files'), task('Print host', 'Beta: print the kernel', 'bash')] },
    { content: 'Alpha and Beta are done.' },
  ],
  subagents: [
    {
      match: 'Alpha',
      turns: [{ tool_calls: [{ name: 'bash', args: { command: 'echo a > a.txt && echo b > b.txt' } }] }, { content: 'Two files [r1 bash]' }],
    },
    { match: 'Beta', turns: [{ tool_calls: [{ name: 'bash', args: { command: 'uname -s' } }] }, { content: 'Kernel printed [r1 bash]' }] },
  ],
};

interface StateBody {
  readonly workflow_status: string;
  readonly user_id: string | null;
  readonly state: LeadRunState;
}

async function finalState(gateway: TestGateway, run: StartedBody): Promise<StateBody> {
  let body: StateBody | null = null;
  await waitFor(async () => {
    const response = await gateway.call('GET', runUrl(run));
    expect(response.status).toBe(200);
    body = response.body as StateBody;
    return body.state.status !== 'running' && body.workflow_status !== 'RUNNING';
  });
  return body as unknown as StateBody;
}

test('a run started over HTTP completes; its events page by task_id and after_seq exactly like listEvents', async () => {
  const harness = await temporal.start(twoTasks);
  const gateway = await gateways.start(harness);
  const response = await gateway.call('POST', '/api/runs', { body: { message: 'count and print', user_id: 'carol' } });
  const run = started(response);
  expect(run.thread_id).toMatch(/^thread_/);
  expect(response.headers.get('location')).toBe(runUrl(run));

  const final = await finalState(gateway, run);
  expect(final).toMatchObject({ workflow_status: 'COMPLETED', user_id: 'carol', state: { status: 'completed', runId: run.run_id } });
  expect(final.state.tasks.map((t) => t.status)).toEqual(['completed', 'completed']);

  const all = await harness.stores.events.listEvents({ runId: run.run_id });
  expect(all.length).toBeGreaterThanOrEqual(6);
  const whole = (await gateway.call('GET', runUrl(run, '/events'))).body as EventsPage;
  expect(whole.events.map((e) => e.seq)).toEqual(all.map((e) => e.seq));
  expect(whole.events[0]).toEqual({
    seq: all[0]?.seq,
    run_id: run.run_id,
    thread_id: run.thread_id,
    category: 'subagent',
    event: all[0]?.event,
    task_id: all[0]?.taskId,
    created_at: all[0]?.createdAt,
    payload: all[0]?.payload,
  });
  expect(whole.next_after_seq).toBe(all.at(-1)?.seq);

  // One task, two rows at a time: the filter applies before the limit, so paging reaches its tail.
  const taskId = final.state.tasks[1]?.taskId ?? '';
  const expected = await harness.stores.events.listEvents({ runId: run.run_id, taskId });
  const paged: EventJson[] = [];
  let after = 0;
  for (let i = 0; i < 20; i += 1) {
    const page = (await gateway.call('GET', runUrl(run, `/events?task_id=${taskId}&after_seq=${after}&limit=2`))).body as EventsPage;
    paged.push(...page.events);
    after = page.next_after_seq;
    if (page.events.length < 2) break;
  }
  expect(paged.map((e) => e.seq)).toEqual(expected.map((e) => e.seq));
  expect(new Set(paged.map((e) => e.task_id))).toEqual(new Set([taskId]));
  const past = (await gateway.call('GET', runUrl(run, `/events?after_seq=${after}`))).body as EventsPage;
  expect(past.events.every((e) => e.task_id !== taskId)).toBe(true);
  expect(past.next_after_seq).toBe(past.events.at(-1)?.seq ?? after);

  // A closed run cannot be cancelled.
  expect((await gateway.call('POST', runUrl(run, '/cancel'))).body).toEqual({ error: { code: 'conflict', message: `run "${run.run_id}" is not running` } });
});

test('bad bodies, paths and queries are 400 naming the field; unknown runs and routes are 404', async () => {
  const harness = await temporal.start(twoTasks, { agents: { researcher: {} } });
  const gateway = await gateways.start(harness);
  const field = async (path: string, init: { body?: unknown; rawBody?: string; headers?: Record<string, string> }, method = 'POST') => {
    const response = await gateway.call(method, path, init);
    expect(response.status).toBe(400);
    return (response.body as { error: { code: string; field: string; message: string } }).error;
  };
  expect(await field('/api/runs', { body: {} })).toEqual({ code: 'bad_request', field: 'message', message: 'message: is required' });
  expect(await field('/api/runs', { body: { message: '   ' } })).toMatchObject({ field: 'message', message: 'message: must not be empty' });
  expect(await field('/api/runs', { body: { message: 'x', max_total: '3' } })).toMatchObject({ field: 'max_total' });
  expect(await field('/api/runs', { body: { message: 'x', max_concurrent: 0 } })).toMatchObject({ field: 'max_concurrent' });
  expect(await field('/api/runs', { body: { message: 'x', thread_id: '../etc' } })).toMatchObject({ field: 'thread_id' });
  expect(await field('/api/runs', { body: { message: 'x', threadId: 't' } })).toMatchObject({ field: 'threadId', message: 'threadId: unknown field' });
  expect(await field('/api/runs', { body: ['x'] })).toMatchObject({ field: 'body' });
  expect(await field('/api/runs', {})).toMatchObject({ field: 'body' });
  expect(await field('/api/runs', { rawBody: '{"message":', headers: { 'content-type': 'application/json' } })).toMatchObject({ field: 'body' });
  expect(await field('/api/runs', { body: { message: 'x', agent: 'nobody' } })).toMatchObject({ field: 'agent', message: expect.stringContaining('researcher') });
  expect(await field('/api/runs', { body: { message: 'x', model: 'gpt-9' } })).toMatchObject({ field: 'model' });
  expect(await field('/api/threads/ok/runs/r1/events?limit=1001', {}, 'GET')).toMatchObject({ field: 'limit', message: 'limit: must be <= 1000' });
  expect(await field('/api/threads/ok/runs/r1/events?after_seq=-1', {}, 'GET')).toMatchObject({ field: 'after_seq' });
  expect(await field('/api/threads/ok/runs/r1/events?taskId=x', {}, 'GET')).toMatchObject({ field: 'taskId' });
  expect(await field('/api/threads/ok/runs/r1/stream', { headers: { 'last-event-id': 'abc' } }, 'GET')).toMatchObject({ field: 'Last-Event-ID' });
  expect(await field('/api/threads/.bad/runs/r1', {}, 'GET')).toMatchObject({ field: 'thread_id' });

  const unsupported = await gateway.call('POST', '/api/runs', { rawBody: 'message=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  expect(unsupported).toMatchObject({ status: 415, body: { error: { code: 'unsupported_media_type' } } });
  for (const path of ['/api/threads/t1/runs/nope', '/api/threads/t1/runs/nope/events', '/api/threads/t1/runs/nope/stream']) {
    expect(await gateway.call('GET', path)).toMatchObject({ status: 404, body: { error: { code: 'not_found', message: 'run "nope" not found in thread "t1"' } } });
  }
  expect(await gateway.call('POST', '/api/threads/t1/runs/nope/cancel')).toMatchObject({ status: 404 });
  expect(await gateway.call('GET', '/api/nothing')).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } });
});

test('cancel returns 202 and the run ends cancelled; a thread with a run in progress refuses another (409)', async () => {
  const harness = await temporal.start({
    lead: [{ tool_calls: [task('Slow', 'Slow: take your time')] }, { content: 'unreachable' }],
    subagents: [{ match: '*', turns: [{ content: 'late', delay_ms: 60_000 }] }],
  });
  const gateway = await gateways.start(harness);
  const run = started(await gateway.call('POST', '/api/runs', { body: { message: 'go', thread_id: 'cancel-me' } }));
  await waitFor(async () => (await harness.stores.events.listEvents({ runId: run.run_id, eventTypes: ['subagent.start'] })).length === 1);

  // Visibility lags a start by a moment; once it lists the run, a second run in the thread is refused.
  await waitFor(async () => (await gateway.call('POST', '/api/runs', { body: { message: 'again', thread_id: 'cancel-me' } })).status === 409);

  const cancel = await gateway.call('POST', runUrl(run, '/cancel'));
  expect(cancel).toMatchObject({ status: 202, body: { run_id: run.run_id, thread_id: 'cancel-me', status: 'cancel_requested' } });
  const final = await finalState(gateway, run);
  expect(final).toMatchObject({ workflow_status: 'CANCELLED', state: { status: 'cancelled' } });
  expect((await gateway.call('POST', runUrl(run, '/cancel'))).status).toBe(409);

  // The thread is free again: its next run starts.
  await waitFor(async () => (await temporal.env().client.workflow.count(`DeerflowThreadId = 'cancel-me' AND ExecutionStatus = 'Running'`)).count === 0);
  const next = await gateway.call('POST', '/api/runs', { body: { message: 'again', thread_id: 'cancel-me' } });
  expect(next.status).toBe(201);
  await gateway.call('POST', runUrl(next.body as StartedBody, '/cancel'));
});

test('POST .../tasks/:task/cancel cancels one task (200 with how it ended); unknown or finished tasks are 409', async () => {
  const harness = await temporal.start({
    lead: [{ tool_calls: [task('Slow', 'Slow: take your time'), task('Quick', 'Quick: now')] }, { content: 'went on without it' }],
    subagents: [
      { match: 'Slow', turns: [{ content: 'late', delay_ms: 60_000 }] },
      { match: '*', turns: [{ content: 'quick' }] },
    ],
  });
  const gateway = await gateways.start(harness);
  const run = started(await gateway.call('POST', '/api/runs', { body: { message: 'go', thread_id: 'cancel-one' } }));
  await waitFor(async () => (await harness.stores.events.listEvents({ runId: run.run_id, eventTypes: ['subagent.start'] })).length === 2);
  await waitFor(async () => (await harness.client.getState(run.workflow_id)).tasks.some((t) => t.taskId === '0.1' && t.status === 'completed'));

  expect(await gateway.call('POST', runUrl(run, '/tasks/0.1/cancel'))).toMatchObject({
    status: 409,
    body: { error: { code: 'conflict', message: "taskId: task '0.1' already ended completed" } },
  });
  expect((await gateway.call('POST', runUrl(run, '/tasks/7.7/cancel'))).status).toBe(409);
  expect(await gateway.call('POST', runUrl(run, '/tasks/0.0/cancel'))).toMatchObject({
    status: 200,
    body: { run_id: run.run_id, thread_id: 'cancel-one', task_id: '0.0', status: 'cancelled' },
  });
  const final = await finalState(gateway, run);
  expect(final.state.status).toBe('completed');
  expect(final.state.tasks.map((t) => t.status)).toEqual(['cancelled', 'completed']);
  expect((await gateway.call('POST', runUrl(run, '/tasks/0.0/cancel'))).status).toBe(409);
  expect((await gateway.call('POST', '/api/threads/cancel-one/runs/nope/tasks/0.0/cancel')).status).toBe(404);
});

test('POST .../answer answers the question a run waits on (200); no question waiting is 409; a blank answer is 400', async () => {
  const harness = await temporal.start({
    lead: [{ tool_calls: [{ name: 'ask_clarification', args: { question: 'Which branch?' } }] }, { content: 'Using main.' }],
  });
  const gateway = await gateways.start(harness);
  const run = started(await gateway.call('POST', '/api/runs', { body: { message: 'deploy', thread_id: 'ask-me' } }));
  await waitFor(async () => (await harness.stores.events.listEvents({ runId: run.run_id, eventTypes: ['clarification.asked'] })).length === 1);
  expect(await gateway.call('POST', runUrl(run, '/answer'), { body: { answer: '  ' } })).toMatchObject({ status: 400 });
  expect(await gateway.call('POST', runUrl(run, '/answer'), { body: { answer: 'main' } })).toMatchObject({
    status: 200,
    body: { run_id: run.run_id, thread_id: 'ask-me', call_id: '0.0', question: 'Which branch?', status: 'answered' },
  });
  const final = await finalState(gateway, run);
  expect(final.state).toMatchObject({ status: 'completed', finalMessageBrief: 'Using main.' });
  expect((await gateway.call('POST', runUrl(run, '/answer'), { body: { answer: 'again' } })).status).toBe(409);
});

test('POST .../tasks/:task/extend moves a running task deadline (200); bad seconds are 400; a finished task is 409', async () => {
  const harness = await temporal.start({
    lead: [{ tool_calls: [task('Slow', 'Slow: take your time')] }, { content: 'done' }],
    subagents: [{ match: '*', turns: [{ content: 'late', delay_ms: 60_000 }] }],
  });
  const gateway = await gateways.start(harness);
  const run = started(await gateway.call('POST', '/api/runs', { body: { message: 'go', thread_id: 'extend-one' } }));
  await waitFor(async () => (await harness.stores.events.listEvents({ runId: run.run_id, eventTypes: ['subagent.start'] })).length === 1);
  expect(await gateway.call('POST', runUrl(run, '/tasks/0.0/extend'), { body: { seconds: 0 } })).toMatchObject({ status: 400 });
  expect(await gateway.call('POST', runUrl(run, '/tasks/0.0/extend'), { body: { seconds: 60 } })).toMatchObject({
    status: 200,
    body: { run_id: run.run_id, thread_id: 'extend-one', task_id: '0.0', timeout_seconds: 1860, extended_seconds: 60 },
  });
  expect((await gateway.call('POST', runUrl(run, '/tasks/9.9/extend'), { body: { seconds: 1 } })).status).toBe(409);
  await gateway.call('POST', runUrl(run, '/cancel'));
});
