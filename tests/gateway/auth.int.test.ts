import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { runServe } from '../../src/cli/serve-command';
import { loadConfig } from '../../src/config';
import type { LeadRunState } from '../../src/contracts';
import { useTemporal, waitFor } from '../support/use-temporal';
import { runUrl, started, task, tokenAuth, TOKENS, useGateway, type StartedBody } from './gateway-support';
import { readSse } from './sse-client';

const temporal = useTemporal();
const gateways = useGateway(temporal);

const oneTask = {
  lead: [{ tool_calls: [task('Note', 'Note: write one line')] }, { content: 'Noted.' }],
  subagents: [{ match: '*', turns: [{ content: 'one line written' }] }],
};

test('tokens decide the user: 401 without a valid one, and another user gets 404 for every run route', async () => {
  const harness = await temporal.start(oneTask);
  const gateway = await gateways.start(harness, { auth: tokenAuth() });

  const attempts: Array<Record<string, string>> = [{}, { authorization: 'Bearer wrong-token' }, { authorization: `Basic ${TOKENS.alice}` }, { authorization: 'Bearer' }];
  for (const headers of attempts) {
    const response = await gateway.call('POST', '/api/runs', { body: { message: 'x' }, headers });
    expect(response).toMatchObject({ status: 401, body: { error: { code: 'unauthorized' } } });
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
  }
  expect((await gateway.call('GET', '/api/threads/t/runs/r', { token: 'nope' })).status).toBe(401);

  // `user_id` in the body cannot override the token's user.
  const run = started(await gateway.call('POST', '/api/runs', { body: { message: 'note it', thread_id: 'alice-thread', user_id: 'bob' }, token: TOKENS.alice }));
  await waitFor(async () => {
    const body = (await gateway.call('GET', runUrl(run), { token: TOKENS.alice })).body as { state: LeadRunState };
    return body.state.status === 'completed';
  });
  const mine = await gateway.call('GET', runUrl(run), { token: TOKENS.alice });
  expect(mine).toMatchObject({ status: 200, body: { user_id: 'alice', workflow_status: 'COMPLETED' } });
  expect(((await gateway.call('GET', runUrl(run, '/events'), { token: TOKENS.alice })).body as { events: unknown[] }).events).toHaveLength(3);

  // Bob sees exactly what he would see for a run that does not exist.
  const missing = { status: 404, body: { error: { code: 'not_found', message: `run "${run.run_id}" not found in thread "alice-thread"` } } };
  expect(await gateway.call('GET', runUrl(run), { token: TOKENS.bob })).toMatchObject(missing);
  expect(await gateway.call('GET', runUrl(run, '/events'), { token: TOKENS.bob })).toMatchObject(missing);
  expect(await gateway.call('POST', runUrl(run, '/cancel'), { token: TOKENS.bob })).toMatchObject(missing);
  const stream = await readSse(`${gateway.url}${runUrl(run, '/stream')}`, { headers: { authorization: `Bearer ${TOKENS.bob}` } });
  expect(stream.status).toBe(404);
  expect(JSON.parse(stream.blocks[0]?.data ?? 'null')).toEqual(missing.body);
  const aliceStream = await readSse(`${gateway.url}${runUrl(run, '/stream')}`, { headers: { authorization: `Bearer ${TOKENS.alice}` } });
  expect(aliceStream.blocks.filter((b) => b.event !== undefined).map((b) => b.event)).toEqual(['subagent.start', 'subagent.step', 'subagent.end', 'end']);

  // Nor can Bob start a run in Alice's thread (it would read her transcript and workspace).
  await waitFor(async () => (await temporal.env().client.workflow.count(`DeerflowThreadId = 'alice-thread'`)).count === 1);
  expect(await gateway.call('POST', '/api/runs', { body: { message: 'peek', thread_id: 'alice-thread' }, token: TOKENS.bob })).toMatchObject({
    status: 404,
    body: { error: { code: 'not_found', message: 'thread "alice-thread" not found' } },
  });
  // Alice continues her thread.
  const next = started(await gateway.call('POST', '/api/runs', { body: { message: 'again', thread_id: 'alice-thread' }, token: TOKENS.alice }));
  expect(next.thread_id).toBe('alice-thread');
});

test('deerflow serve: gateway on a cluster address (client only), runs served by workers elsewhere, clean stop', async () => {
  const harness = await temporal.start(oneTask);
  // The harness's config (same store), pointed at the test cluster, listening on any free port.
  const configPath = join(harness.dir, 'serve.yaml');
  writeFileSync(
    configPath,
    stringify({
      models: [{ name: 'scripted', provider: 'scripted', script: './scenario.yaml' }],
      default_model: 'scripted',
      gateway: { port: 0 },
    }),
  );
  const loaded = loadConfig({ path: configPath, env: { TEMPORAL_ADDRESS: temporal.env().address } });
  const lines: string[] = [];
  let stop = () => {};
  const until = new Promise<void>((resolve) => (stop = resolve));
  const serving = runServe(loaded, { until, log: (line) => lines.push(line) });
  await waitFor(async () => lines.some((l) => l.startsWith('deerflow gateway at ')));
  const url = /deerflow gateway at (\S+)/.exec(lines.find((l) => l.startsWith('deerflow gateway at ')) ?? '')?.[1] ?? '';
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

  const response = await fetch(`${url}/api/runs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message: 'note it' }) });
  expect(response.status).toBe(201);
  const run = (await response.json()) as StartedBody;
  const stream = await readSse(`${url}${runUrl(run, '/stream')}`);
  expect(stream.blocks.filter((b) => b.event !== undefined).map((b) => b.event)).toEqual(['subagent.start', 'subagent.step', 'subagent.end', 'end']);

  stop();
  await serving;
  await expect(fetch(`${url}/api/runs`)).rejects.toThrow();
});
