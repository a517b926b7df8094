import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { stringify } from 'yaml';
import { DeerFlowClient, type StartRunRequest } from '../../src/client';
import { loadConfig, type LoadedConfig } from '../../src/config';
import type { LeadRunState } from '../../src/contracts';
import { openStores, type Stores } from '../../src/store';
import type { Tracing } from '../../src/telemetry';
import { createWorkers, type DeerflowWorkers, type WorkerQueues } from '../../src/worker/create-workers';
import { ModelRequestRecorder } from './model-request-recorder';

/** Name of the scripted model every harness config defines. */
export const SCRIPTED_MODEL = 'scripted';

export interface HarnessOptions {
  /** Reuse this folder (and its SQLite store) instead of a fresh temp dir; it is not deleted on close. */
  readonly dir?: string;
  /** Use PostgreSQL at this URL instead of SQLite. */
  readonly postgresUrl?: string;
  /** The task queues the harness's workers serve (another process may serve the rest). @default 'all' */
  readonly queues?: WorkerQueues;
  /** Trace the workers (workflow, activity, model and tool spans) into this tracing. @default no spans */
  readonly tracing?: Tracing;
}

export interface Harness {
  readonly loaded: LoadedConfig;
  /** Every chat-model request the workers made. */
  readonly recorder: ModelRequestRecorder;
  readonly workers: DeerflowWorkers;
  readonly stores: Stores;
  readonly client: DeerFlowClient;
  readonly dir: string;
  /** Starts a run and waits until its workflow closes; returns the final state (also for failed runs). */
  run(request: StartRunRequest): Promise<{ state: LeadRunState; workflowId: string }>;
  close(): Promise<void>;
}

/**
 * Real workers on a real dev server, with a scripted model playing `scenario` and a fresh SQLite
 * store in a temp folder. `config` is merged into a minimal config.yaml.
 */
export async function startHarness(
  env: TestWorkflowEnvironment,
  scenario: Record<string, unknown>,
  config: Record<string, unknown> = {},
  options: HarnessOptions = {},
): Promise<Harness> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'deerflow-test-'));
  writeFileSync(join(dir, 'scenario.yaml'), stringify(scenario));
  writeFileSync(
    join(dir, 'config.yaml'),
    stringify({
      models: [{ name: SCRIPTED_MODEL, provider: 'scripted', script: './scenario.yaml' }],
      default_model: SCRIPTED_MODEL,
      sandbox: { allow_host_bash: true },
      // Tests end with work in flight; stopping it at once keeps teardown fast (graceful stops have their own tests).
      worker: { shutdown_grace_seconds: 0 },
      ...config,
    }),
  );
  const loaded = loadConfig({ path: join(dir, 'config.yaml'), env: {} });
  const stores = await openStores({ dataDir: loaded.config.store.data_dir, postgresUrl: options.postgresUrl ?? null });
  const recorder = new ModelRequestRecorder();
  const workers: DeerflowWorkers = await createWorkers({
    connection: env.nativeConnection,
    namespace: env.namespace ?? 'default',
    loaded,
    stores,
    modelCallbacks: [recorder],
    queues: options.queues,
    tracing: options.tracing,
  });
  const running = workers.run();
  const client = new DeerFlowClient(env.client, loaded.config, { agents: stores.agents, events: stores.events, batches: stores.batches, threads: stores.threads });
  let closed = false;
  return {
    loaded,
    recorder,
    workers,
    stores,
    client,
    dir,
    async run(request) {
      const started = await client.startRun(request);
      await started.handle.result().catch(() => undefined);
      return { state: await client.getState(started.workflowId), workflowId: started.workflowId };
    },
    /** Idempotent: a test may close a harness early to start another on the same store (`options.dir`). */
    async close() {
      if (closed) return;
      closed = true;
      workers.shutdown();
      await running;
      await stores.close();
      if (options.dir === undefined) rmSync(dir, { recursive: true, force: true });
    },
  };
}
