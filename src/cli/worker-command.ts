import { NativeConnection } from '@temporalio/worker';
import type { LoadedConfig } from '../config';
import { startConfiguredTracing } from '../telemetry';
import { openConfiguredStores } from '../store';
import { createWorkers, type WorkerQueues } from '../worker/create-workers';
import { clusterConnectionOptions } from './cluster-connection-options';
import { CliExit, EXIT_USAGE } from './load-cli-config';
import { stopSignals } from './stop-signals';

/**
 * `deerflow worker`: a long-running worker process for an existing cluster (every task queue).
 * On SIGINT/SIGTERM it stops polling and lets running subagents and tools finish for
 * `worker.shutdown_grace_seconds`; what is left is cancelled and retried on another worker at once.
 * A second signal exits at once.
 */
export async function workerCommand(loaded: LoadedConfig, queues: WorkerQueues = 'all'): Promise<number> {
  const { config } = loaded;
  if (config.temporal.address === null) {
    throw new CliExit('deerflow worker needs a cluster: set TEMPORAL_ADDRESS or temporal.address in config.yaml', EXIT_USAGE);
  }
  const cluster = clusterConnectionOptions(loaded);
  const stores = await openConfiguredStores(config.store);
  const tracing = startConfiguredTracing(config.telemetry);
  const connection = await NativeConnection.connect(cluster);
  try {
    const workers = await createWorkers({ connection, namespace: config.temporal.namespace, loaded, stores, queues, tracing });
    const log = (line: string) => process.stderr.write(`${line}\n`);
    const signals = stopSignals(log);
    void signals.received.then(() => {
      log(`deerflow worker stopping: running work has ${config.worker.shutdown_grace_seconds} s to finish (signal again to stop at once)`);
      workers.shutdown();
    });
    process.stderr.write(
      `deerflow worker on ${config.temporal.address} (namespace ${config.temporal.namespace}), ` +
        `queues: ${queues}` + (queues === 'workflows' ? '\n' : `, ${config.subagent_runtime.max_running} subagent slots and as many batch item slots\n`),
    );
    try {
      await workers.run();
    } finally {
      signals.dispose();
    }
    return 0;
  } finally {
    await connection.close();
    await stores.close();
    // Last: the spans of the final activities are exported before the process ends.
    await tracing?.shutdown();
  }
}
