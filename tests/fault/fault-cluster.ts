import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { stringify } from 'yaml';
import { loadConfig, type LoadedConfig } from '../../src/config';
import { openStores, type Stores } from '../../src/store';
import { createWorkers, type WorkerQueues } from '../../src/worker/create-workers';
import { createTestEnv } from '../support/temporal-env';
import { startSubagentWorkerProcess } from './subagent-worker-process';

/** What a fault test drives: a dev server, in-process workers, and one subagent worker process to kill. */
export interface FaultCluster {
  env(): TestWorkflowEnvironment;
  /** Writes the scenario and config, opens the SQLite stores (closed after the file's tests). */
  configure(scenario: Record<string, unknown>, config: Record<string, unknown>): Promise<{ loaded: LoadedConfig; stores: Stores; configPath: string }>;
  /** Runs in-process workers for `queues` until the file's tests end. */
  startWorkers(loaded: LoadedConfig, stores: Stores, queues: WorkerQueues): Promise<void>;
  /** Starts the subagent worker process (`deerflow worker --queues subagents`). */
  startWorkerProcess(configPath: string): Promise<void>;
  /** SIGKILLs the worker process and waits until it is gone. */
  killWorkerProcess(): Promise<void>;
}

/** One dev server and temp folder per fault test file, registered as jest hooks, everything stopped after. */
export function useFaultCluster(): FaultCluster {
  let env: TestWorkflowEnvironment | undefined;
  let dir = '';
  let stores: Stores | undefined;
  let child: ChildProcess | null = null;
  const workers: Array<{ shutdown(): void }> = [];
  const running: Promise<void>[] = [];
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
  const current = (): TestWorkflowEnvironment => {
    if (env === undefined) throw new Error('the Temporal test environment is not started yet');
    return env;
  };
  return {
    env: current,
    async configure(scenario, config) {
      writeFileSync(join(dir, 'scenario.yaml'), stringify(scenario));
      const configPath = join(dir, 'config.yaml');
      writeFileSync(configPath, stringify({ models: [{ name: 'scripted', provider: 'scripted', script: './scenario.yaml' }], ...config }));
      const loaded = loadConfig({ path: configPath, env: {} });
      stores = await openStores({ dataDir: loaded.config.store.data_dir, postgresUrl: null });
      return { loaded, stores, configPath };
    },
    async startWorkers(loaded, workerStores, queues) {
      const e = current();
      const w = await createWorkers({ connection: e.nativeConnection, namespace: e.namespace ?? 'default', loaded, stores: workerStores, queues });
      workers.push(w);
      running.push(w.run());
    },
    async startWorkerProcess(configPath) {
      child = await startSubagentWorkerProcess(configPath, current().address);
    },
    async killWorkerProcess() {
      const proc = child;
      if (proc === null) return;
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGKILL');
      await exited;
    },
  };
}
