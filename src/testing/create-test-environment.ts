import { Client } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { DeerFlowClient } from '../client';
import { loadConfig, type LoadedConfig } from '../config';
import { startDevServer, type DevServer, type DevServerOptions } from '../devserver';
import { openConfiguredStores, type Stores } from '../store';
import { createWorkers, type DeerflowWorkers, type WorkerQueues } from '../worker/create-workers';

/** Options of {@link createTestEnvironment}. */
export interface TestEnvironmentOptions {
  /**
   * The deerflow config: a config.yaml path (loaded with `process.env`), or a config already loaded
   * with `loadConfig`. Its `store` settings pick the store; `temporal.address` is ignored (the
   * environment always runs its own server).
   */
  readonly config: string | LoadedConfig;
  /** Dev server settings (ports, namespace, CLI path). @default in memory, free ports, namespace `default` */
  readonly devServer?: DevServerOptions;
  /** Task queues the workers serve. @default 'all' */
  readonly queues?: WorkerQueues;
}

/** A dev server with deerflow workers on it, for tests. */
export interface DeerflowTestEnvironment {
  /** gRPC address of the dev server (`127.0.0.1:<port>`). */
  readonly address: string;
  readonly namespace: string;
  /** Temporal Web of the dev server. */
  readonly uiUrl: string;
  /** A plain Temporal client on the server: start, query and list workflows with it. */
  readonly client: Client;
  /** DeerFlowClient on the same server and stores. */
  readonly deerflow: DeerFlowClient;
  readonly stores: Stores;
  readonly loaded: LoadedConfig;
  readonly workers: DeerflowWorkers;
  /** Stops the workers, then closes connections, stores and the server. Safe to call twice. */
  teardown(): Promise<void>;
}

/**
 * Starts a local Temporal dev server (in memory, deerflow's search attributes registered) and this
 * package's workers on it, for users' own tests: start runs with {@link DeerflowTestEnvironment.client}
 * (e.g. `leadRunStartOptions`) or `deerflow`, and call `teardown()` when done.
 *
 * @throws ConfigError when the config file is invalid; Error when the server does not start (no
 * temporal CLI and no way to download one). Whatever was started is stopped before it throws.
 */
export async function createTestEnvironment(options: TestEnvironmentOptions): Promise<DeerflowTestEnvironment> {
  const loaded = typeof options.config === 'string' ? loadConfig({ path: options.config }) : options.config;
  const { config } = loaded;
  const cleanups: Array<() => Promise<void>> = [];
  let stopped: Promise<void> | null = null;
  // In reverse order of start; a failed cleanup must not keep the server running.
  const teardown = (): Promise<void> =>
    (stopped ??= (async () => {
      for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    })());
  try {
    const server: DevServer = await startDevServer({ namespace: config.temporal.namespace, ...options.devServer });
    cleanups.push(() => server.stop());
    const stores = await openConfiguredStores(config.store);
    cleanups.push(() => stores.close());
    // One connection for the workers and the client, as `npm start` has: runs and batches start
    // eagerly on this environment's workflow worker when it serves the workflow queue.
    const connection = await NativeConnection.connect({ address: server.address });
    cleanups.push(() => connection.close());
    const queues = options.queues ?? 'all';
    const workers = await createWorkers({ connection, namespace: server.namespace, loaded, stores, queues });
    const running = workers.run();
    cleanups.push(async () => {
      workers.shutdown();
      await running;
    });
    const client = new Client({ connection, namespace: server.namespace });
    return {
      address: server.address,
      namespace: server.namespace,
      uiUrl: server.uiUrl,
      client,
      deerflow: new DeerFlowClient(
        client,
        config,
        { agents: stores.agents, events: stores.events, batches: stores.batches, threads: stores.threads },
        { eagerStart: queues !== 'subagents' },
      ),
      stores,
      loaded,
      workers,
      teardown,
    };
  } catch (err) {
    await teardown();
    throw err;
  }
}
