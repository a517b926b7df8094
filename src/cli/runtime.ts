import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { DeerFlowClient } from '../client';
import type { LoadedConfig } from '../config';
import { startDevServer, type DevServer } from '../devserver';
import { openConfiguredStores, type Stores } from '../store';
import { clientTracingInterceptors, startConfiguredTracing } from '../telemetry';
import { createWorkers, type DeerflowWorkers } from '../worker/create-workers';
import { clusterConnectionOptions } from './cluster-connection-options';

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
    // The embedded dev server speaks plaintext; a configured cluster may need TLS and an API key.
    const cluster = config.temporal.address === null ? null : clusterConnectionOptions(options.loaded);
    let server: DevServer | null = null;
    if (cluster === null) {
      options.log('starting the embedded Temporal dev server ...');
      server = await startDevServer({ namespace: config.temporal.namespace });
      cleanups.push(() => server!.stop());
      options.log(`Temporal dev server at ${server.address}, Web UI at ${server.uiUrl}, metrics at ${server.metricsUrl}`);
    }
    const connectionOptions = server === null ? cluster! : { address: server.address };
    const namespace = config.temporal.namespace;
    const stores = await openConfiguredStores(config.store);
    cleanups.push(() => stores.close());
    // Spans of this process: client calls, and workflows and activities when it runs workers. Shut
    // down after the connections and workers (cleanups run in reverse), so their last spans go out.
    const tracing = startConfiguredTracing(config.telemetry);
    if (tracing !== null) cleanups.push(() => tracing.shutdown());
    // With workers here, the client shares their connection, so runs and batches start eagerly:
    // their first workflow task goes straight to this process's workflow worker.
    const withWorkers = options.withWorkers || server !== null;
    let connection: Connection | NativeConnection;
    if (withWorkers) {
      const workerConnection = await NativeConnection.connect(connectionOptions);
      cleanups.push(() => workerConnection.close());
      const workers: DeerflowWorkers = await createWorkers({ connection: workerConnection, namespace, loaded: options.loaded, stores, tracing });
      const running = workers.run();
      cleanups.push(async () => {
        workers.shutdown();
        await running;
      });
      connection = workerConnection;
    } else {
      const clientConnection = await Connection.connect(connectionOptions);
      cleanups.push(() => clientConnection.close());
      connection = clientConnection;
    }
    const temporal = new Client({ connection, namespace, ...(tracing === null ? {} : { interceptors: clientTracingInterceptors() }) });
    return {
      temporal,
      deerflow: new DeerFlowClient(
        temporal,
        config,
        { agents: stores.agents, events: stores.events, batches: stores.batches, threads: stores.threads },
        { eagerStart: withWorkers },
      ),
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
