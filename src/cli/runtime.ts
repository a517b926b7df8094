import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { DeerFlowClient } from '../client';
import type { LoadedConfig } from '../config';
import { startDevServer, type DevServer } from '../devserver';
import { openStores, type Stores } from '../store';
import { createWorkers, type DeerflowWorkers } from '../worker/create-workers';

/** A connected deerflow: Temporal client, stores, and (in embedded mode) a dev server and workers. */
export interface Runtime {
  readonly temporal: Client;
  readonly deerflow: DeerFlowClient;
  readonly stores: Stores;
  readonly namespace: string;
  /** Base URL of the Temporal Web UI, when known. */
  readonly uiUrl: string | null;
  readonly embedded: boolean;
  stop(): Promise<void>;
}

export interface StartRuntimeOptions {
  readonly loaded: LoadedConfig;
  /** Run workers in this process (always true in embedded mode). */
  readonly withWorkers: boolean;
  readonly log: (line: string) => void;
}

/**
 * Connects to `temporal.address` (or `TEMPORAL_ADDRESS`), or starts the embedded dev server when
 * none is configured, and runs this process's workers when asked. `stop()` undoes all of it in
 * reverse order.
 */
export async function startRuntime(options: StartRuntimeOptions): Promise<Runtime> {
  const { config } = options.loaded;
  const cleanups: Array<() => Promise<void>> = [];
  const stop = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((err: unknown) => options.log(`cleanup failed: ${String(err)}`));
  };
  try {
    let server: DevServer | null = null;
    if (config.temporal.address === null) {
      options.log('starting the embedded Temporal dev server ...');
      server = await startDevServer({ namespace: config.temporal.namespace });
      cleanups.push(() => server!.stop());
      options.log(`Temporal dev server at ${server.address}, Web UI at ${server.uiUrl}`);
    }
    const address = server?.address ?? config.temporal.address!;
    const namespace = config.temporal.namespace;
    const stores = await openStores({
      dataDir: config.store.data_dir,
      postgresUrl: config.store.postgres_url,
      sqliteSynchronous: config.store.sqlite_synchronous,
    });
    cleanups.push(() => stores.close());
    const connection = await Connection.connect({ address });
    cleanups.push(() => connection.close());
    const temporal = new Client({ connection, namespace });

    if (options.withWorkers || server !== null) {
      const workerConnection = await NativeConnection.connect({ address });
      cleanups.push(() => workerConnection.close());
      const workers: DeerflowWorkers = await createWorkers({ connection: workerConnection, namespace, loaded: options.loaded, stores });
      const running = workers.run();
      cleanups.push(async () => {
        workers.shutdown();
        await running;
      });
    }
    return {
      temporal,
      deerflow: new DeerFlowClient(temporal, config, { agents: stores.agents, events: stores.events, batches: stores.batches, threads: stores.threads }),
      stores,
      namespace,
      uiUrl: server?.uiUrl ?? config.temporal.ui_url,
      embedded: server !== null,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Temporal Web link to one workflow execution. */
export function workflowUiUrl(uiUrl: string, namespace: string, workflowId: string, temporalRunId: string): string {
  return `${uiUrl}/namespaces/${encodeURIComponent(namespace)}/workflows/${encodeURIComponent(workflowId)}/${encodeURIComponent(temporalRunId)}/history`;
}
