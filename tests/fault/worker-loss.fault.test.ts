import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { stringify } from 'yaml';
import { DeerFlowClient } from '../../src/client';
import { loadConfig } from '../../src/config';
import { openStores, type Stores } from '../../src/store';
import { createWorkers, type DeerflowWorkers } from '../../src/worker/create-workers';
import { createTestEnv } from '../support/temporal-env';
import { waitFor } from '../support/use-temporal';
import { startSubagentWorkerProcess } from './subagent-worker-process';

let env: TestWorkflowEnvironment;
let dir: string;
let stores: Stores;
const workers: DeerflowWorkers[] = [];
const running: Promise<void>[] = [];
let child: ChildProcess | null = null;

beforeAll(async () => {
  env = await createTestEnv();
  dir = mkdtempSync(join(tmpdir(), 'deerflow-fault-'));
}, 60_000);

afterAll(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  for (const w of workers) w.shutdown();
  await Promise.all(running);
  await stores?.close();
  await env?.teardown();
  rmSync(dir, { recursive: true, force: true });
});

test('kill -9 of the worker running a subagent: the lease expires, the task runs again elsewhere, one terminal status, no double counting', async () => {
  writeFileSync(
    join(dir, 'scenario.yaml'),
    stringify({
      lead: [{ tool_calls: [{ name: 'task', args: { description: 'Survive', prompt: 'Survive a crash', subagent_type: 'general-purpose' } }] }, { content: 'survived' }],
      subagents: [{ match: 'Survive', turns: [{ content: 'finished after the crash', delay_ms: 3_000, usage: { input_tokens: 7, output_tokens: 3 } }] }],
    }),
  );
  const configPath = join(dir, 'config.yaml');
  writeFileSync(
    configPath,
    stringify({
      models: [{ name: 'scripted', provider: 'scripted', script: './scenario.yaml' }],
      subagent_runtime: { heartbeat_timeout_seconds: 5 },
    }),
  );
  const loaded = loadConfig({ path: configPath, env: {} });
  stores = await openStores({ dataDir: loaded.config.store.data_dir, postgresUrl: null });
  const namespace = env.namespace ?? 'default';
  const lead = await createWorkers({ connection: env.nativeConnection, namespace, loaded, stores, queues: 'workflows' });
  workers.push(lead);
  running.push(lead.run());

  // The only subagent worker is another process; it picks up the task and is killed mid-task.
  child = await startSubagentWorkerProcess(configPath, env.address);
  const client = new DeerFlowClient(env.client, loaded.config, { agents: stores.agents });
  const started = await client.startRun({ message: 'go', threadId: 'fault-thread', runId: 'run-1' });
  await waitFor(async () => (await stores.events.listEvents({ runId: 'run-1', eventTypes: ['subagent.start'] })).length === 1);
  child.kill('SIGKILL');
  await new Promise((r) => child?.once('exit', r));

  const survivor = await createWorkers({ connection: env.nativeConnection, namespace, loaded, stores, queues: 'subagents' });
  workers.push(survivor);
  running.push(survivor.run());
  await started.handle.result();

  const state = await client.getState(started.workflowId);
  expect(state.status).toBe('completed');
  expect(state.tasks).toEqual([
    expect.objectContaining({
      status: 'completed',
      attempts: 2,
      resultBrief: 'finished after the crash',
      // One attempt's usage, not the sum of both.
      usage: { input_tokens: 7, output_tokens: 3, total_tokens: 10 },
    }),
  ]);
  const events = await stores.events.listEvents({ runId: 'run-1' });
  expect(events.filter((e) => e.event === 'subagent.start')).toHaveLength(1);
  expect(events.filter((e) => e.event === 'subagent.end')).toHaveLength(1);
  const history = await env.client.workflow.getHandle(started.workflowId).fetchHistory();
  const timedOut = (history.events ?? []).filter((e) => e.activityTaskTimedOutEventAttributes);
  expect(timedOut).toHaveLength(1);
}, 90_000);
