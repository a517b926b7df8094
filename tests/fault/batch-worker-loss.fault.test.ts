import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { stringify } from 'yaml';
import { DeerFlowClient } from '../../src/client';
import { loadConfig } from '../../src/config';
import type { BatchItemRecord } from '../../src/contracts';
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
  dir = mkdtempSync(join(tmpdir(), 'deerflow-batch-fault-'));
}, 60_000);

afterAll(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  for (const w of workers) w.shutdown();
  await Promise.all(running);
  await stores?.close();
  await env?.teardown();
  rmSync(dir, { recursive: true, force: true });
});

test('kill -9 of the subagent worker mid-batch: no item lost, none duplicated, the lost attempts are on the rows', async () => {
  writeFileSync(join(dir, 'scenario.yaml'), stringify({ subagents: [{ match: '*', turns: [{ content: 'item done', delay_ms: 2_000 }] }] }));
  const configPath = join(dir, 'config.yaml');
  writeFileSync(
    configPath,
    stringify({
      models: [{ name: 'scripted', provider: 'scripted', script: './scenario.yaml' }],
      subagent_runtime: { max_running: 2 },
      subagent_batches: { enabled: true, lease_seconds: 10, poll_interval_seconds: 0.2 },
    }),
  );
  const loaded = loadConfig({ path: configPath, env: {} });
  stores = await openStores({ dataDir: loaded.config.store.data_dir, postgresUrl: null });
  const namespace = env.namespace ?? 'default';
  const lead = await createWorkers({ connection: env.nativeConnection, namespace, loaded, stores, queues: 'workflows' });
  workers.push(lead);
  running.push(lead.run());

  // The only subagent worker is another process; it is killed while two items run on it.
  child = await startSubagentWorkerProcess(configPath, env.address);
  const client = new DeerFlowClient(env.client, loaded.config, { agents: stores.agents, events: stores.events, batches: stores.batches });
  const started = await client.startBatch({ title: 'crash', subagentType: 'general-purpose', ownerId: 'ops', items: Array.from({ length: 6 }, (_, i) => ({ prompt: `Item ${i}` })), maxRunningItems: 2 });
  await waitFor(async () => (await stores.events.listEvents({ runId: started.batchId, eventTypes: ['subagent.start'] })).length === 2);
  child.kill('SIGKILL');
  await new Promise((r) => child?.once('exit', r));

  const survivor = await createWorkers({ connection: env.nativeConnection, namespace, loaded, stores, queues: 'subagents' });
  workers.push(survivor);
  running.push(survivor.run());
  const final = await started.handle.result();

  expect(final.counts).toEqual({ pending: 0, running: 0, completed: 6, failed: 0, cancelled: 0, timed_out: 0 });
  const items: BatchItemRecord[] = [];
  for await (const item of client.exportBatchItems(started.batchId, 'ops')) items.push(item);
  expect(items.map((i) => [i.status, i.result])).toEqual(Array.from({ length: 6 }, () => ['completed', 'item done']));
  // The two items running on the killed worker lost their lease: attempt 1 is recorded as lost.
  const lost = items.filter((i) => i.attempts === 2);
  expect(lost).toHaveLength(2);
  for (const item of lost) expect(item.attempt_history.map((a) => [a.attempt, a.outcome])).toEqual([[1, 'lost']]);
  expect(items.filter((i) => i.attempts === 1)).toHaveLength(4);
  // One start and one end event per item: nothing ran twice to completion.
  const events = await stores.events.listEvents({ runId: started.batchId, limit: 1000 });
  for (const type of ['subagent.start', 'subagent.end'] as const) {
    const perItem = events.filter((e) => e.event === type).map((e) => e.taskId);
    expect(perItem).toHaveLength(6);
    expect(new Set(perItem).size).toBe(6);
  }
}, 120_000);
