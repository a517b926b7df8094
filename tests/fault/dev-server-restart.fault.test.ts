import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { stringify } from 'yaml';
import { DeerFlowClient } from '../../src/client';
import { loadConfig } from '../../src/config';
import { resolveTemporalCli, startDevServer, type DevServer } from '../../src/devserver';
import { openStores, type Stores } from '../../src/store';
import { createWorkers, type DeerflowWorkers } from '../../src/worker/create-workers';
import { waitFor } from '../support/use-temporal';
import { recordFaultFigures, tallyCompletedRuns } from './fault-figures';

const RUNS = 5;
const TASKS_PER_RUN = 2;
const DOWN_MS = 5_000;

const task = (n: number) => ({ name: 'task', args: { description: `Step ${n}`, prompt: `Step ${n}: outlive the server`, subagent_type: 'general-purpose' } });

let dir = '';
let server: DevServer | undefined;
let stores: Stores | undefined;
let workers: DeerflowWorkers | undefined;
let running: Promise<void> | undefined;
const connections: Array<{ close(): Promise<void> }> = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'deerflow-restart-'));
});

afterAll(async () => {
  workers?.shutdown();
  await running?.catch(() => undefined);
  for (const c of connections) await c.close().catch(() => undefined);
  await stores?.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('stopping and restarting a file-backed dev server mid-run: the workers reconnect and every run completes', async () => {
  writeFileSync(
    join(dir, 'scenario.yaml'),
    stringify({
      lead: [{ tool_calls: Array.from({ length: TASKS_PER_RUN }, (_, i) => task(i + 1)) }, { content: 'done despite the restart' }],
      subagents: [{ match: '*', turns: [{ content: 'step done', delay_ms: 3_000, usage: { input_tokens: 5, output_tokens: 2 } }] }],
    }),
  );
  writeFileSync(
    join(dir, 'config.yaml'),
    stringify({
      models: [{ name: 'scripted', provider: 'scripted', script: './scenario.yaml' }],
      subagent_runtime: { heartbeat_timeout_seconds: 5, max_running: RUNS * TASKS_PER_RUN },
    }),
  );
  const loaded = loadConfig({ path: join(dir, 'config.yaml'), env: {} });
  stores = await openStores({ dataDir: loaded.config.store.data_dir, postgresUrl: null });
  // The local CLI, as every test uses: tests never download one.
  const cliPath = resolveTemporalCli().path;
  if (cliPath === null) throw new Error('No temporal CLI found for the test dev server. Run `npm run temporal:install`.');
  const dbFilename = join(dir, 'temporal.db');
  server = await startDevServer({ cliPath, dbFilename });
  const port = Number(server.address.split(':').pop());
  const uiPort = Number(new URL(server.uiUrl).port);

  const connection = await Connection.connect({ address: server.address });
  connections.push(connection);
  const nativeConnection = await NativeConnection.connect({ address: server.address });
  connections.push(nativeConnection);
  workers = await createWorkers({ connection: nativeConnection, namespace: server.namespace, loaded, stores });
  running = workers.run();
  const client = new DeerFlowClient(new Client({ connection, namespace: server.namespace }), loaded.config, { agents: stores.agents });
  const began = Date.now();
  const runs = await Promise.all(Array.from({ length: RUNS }, (_, i) => client.startRun({ message: 'go', threadId: `restart-thread-${i}`, runId: `restart-run-${i}` })));
  const eventStore = stores.events;
  const started = async (): Promise<number> => {
    let n = 0;
    for (const run of runs) n += (await eventStore.listEvents({ runId: run.runId, eventTypes: ['subagent.start'] })).length;
    return n;
  };
  await waitFor(async () => (await started()) === RUNS * TASKS_PER_RUN, 60_000);

  // Down while every subagent runs: their heartbeats and completions meet a dead server.
  const stoppedAt = Date.now();
  await server.stop();
  await new Promise((r) => setTimeout(r, DOWN_MS));
  server = await startDevServer({ cliPath, dbFilename, port, uiPort });
  const downMs = Date.now() - stoppedAt;
  const restarted = Date.now();
  await Promise.all(runs.map((run) => run.handle.result().catch(() => undefined)));
  const recoveredMs = Date.now() - restarted;

  const { lost, attempts } = await tallyCompletedRuns(runs, TASKS_PER_RUN, (id) => client.getState(id), eventStore);
  recordFaultFigures('r2-dev-server-restart', {
    title: 'R2 dev server stop and restart',
    runs: RUNS,
    tasks: RUNS * TASKS_PER_RUN,
    faults: { 'server restarts': 1 },
    lost,
    measured: {
      'seconds the server was down': Math.round(downMs / 100) / 10,
      'seconds from restart to all runs done': Math.round(recoveredMs / 100) / 10,
      'tasks run again (attempt 2+)': attempts.filter((a) => a > 1).length,
    },
    seconds: Math.round((Date.now() - began) / 100) / 10,
  });

  expect(lost).toEqual(Object.fromEntries(Object.keys(lost).map((k) => [k, 0])));
}, 120_000);
