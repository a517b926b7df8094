import type { ChildProcess } from 'node:child_process';
import type { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { NativeConnection } from '@temporalio/worker';
import { stringify } from 'yaml';
import { loadConfig, type LoadedConfig } from '../../src/config';
import { openStores, type Stores } from '../../src/store';
import { createWorkers, type WorkerQueues } from '../../src/worker/create-workers';
import { createTestEnv } from '../support/temporal-env';
import { startSubagentWorkerProcess } from './subagent-worker-process';

/** What a fault test drives: a dev server, in-process workers, and subagent worker processes to kill. */
export interface FaultCluster {
  env(): TestWorkflowEnvironment;
  /** Writes the scenario and config, opens the SQLite stores (closed after the file's tests). */
  configure(scenario: Record<string, unknown>, config: Record<string, unknown>): Promise<{ loaded: LoadedConfig; stores: Stores; configPath: string }>;
  /**
   * Runs in-process workers for `queues` until the file's tests end. `ownConnection` gives them a
   * connection of their own: the SDK allows one worker per task queue on a connection.
   */
  startWorkers(loaded: LoadedConfig, stores: Stores, queues: WorkerQueues, options?: { ownConnection?: boolean; modelCallbacks?: readonly BaseCallbackHandler[] }): Promise<void>;
  /** Starts the subagent worker process (`deerflow worker --queues subagents`); resolves with its pid once it serves. */
  startWorkerProcess(configPath: string): Promise<number>;
  /** SIGKILLs the worker process `pid` (default: the last one started) and waits until it is gone. */
  killWorkerProcess(pid?: number): Promise<void>;
}

/** One dev server and temp folder per fault test file, registered as jest hooks, everything stopped after. */
export function useFaultCluster(): FaultCluster {
  let env: TestWorkflowEnvironment | undefined;
  let dir = '';
  let stores: Stores | undefined;
  const children = new Map<number, ChildProcess>();
  let lastPid: number | undefined;
  const workers: Array<{ shutdown(): void }> = [];
  const running: Promise<void>[] = [];
  beforeAll(async () => {
    env = await createTestEnv();
    dir = mkdtempSync(join(tmpdir(), 'deerflow-fault-'));
  }, 60_000);
  afterAll(async () => {
    for (const child of children.values()) if (child.exitCode === null) child.kill('SIGKILL');
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
    async startWorkers(loaded, workerStores, queues, options = {}) {
      const e = current();
      const connection = options.ownConnection ? await NativeConnection.connect({ address: e.address }) : e.nativeConnection;
      const w = await createWorkers({ connection, namespace: e.namespace ?? 'default', loaded, stores: workerStores, queues, modelCallbacks: options.modelCallbacks });
      workers.push(w);
      running.push(options.ownConnection ? w.run().finally(() => connection.close()) : w.run());
    },
    async startWorkerProcess(configPath) {
      const proc = await startSubagentWorkerProcess(configPath, current().address);
      if (proc.pid === undefined) throw new Error('the worker process has no pid');
      children.set(proc.pid, proc);
      lastPid = proc.pid;
      return proc.pid;
    },
    async killWorkerProcess(pid = lastPid) {
      const proc = pid === undefined ? undefined : children.get(pid);
      if (proc === undefined) return;
      children.delete(proc.pid ?? -1);
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGKILL');
      await exited;
    },
  };
}
