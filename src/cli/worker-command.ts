import { NativeConnection } from '@temporalio/worker';
import type { LoadedConfig } from '../config';
import { openStores } from '../store';
import { createWorkers, type WorkerQueues } from '../worker/create-workers';
import { CliExit, EXIT_USAGE } from './load-cli-config';

/**
 * `deerflow worker`: a long-running worker process for an existing cluster (both task queues).
 * Stops gracefully on SIGINT/SIGTERM, letting running activities finish or heartbeat-cancel.
 */
export async function workerCommand(loaded: LoadedConfig, queues: WorkerQueues = 'all'): Promise<number> {
  const { config } = loaded;
  if (config.temporal.address === null) {
    throw new CliExit('deerflow worker needs a cluster: set TEMPORAL_ADDRESS or temporal.address in config.yaml', EXIT_USAGE);
  }
  const stores = await openStores({
    dataDir: config.store.data_dir,
    postgresUrl: config.store.postgres_url,
    sqliteSynchronous: config.store.sqlite_synchronous,
  });
  const connection = await NativeConnection.connect({ address: config.temporal.address });
  try {
    const workers = await createWorkers({ connection, namespace: config.temporal.namespace, loaded, stores, queues });
    const stop = () => workers.shutdown();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    process.stderr.write(
      `deerflow worker on ${config.temporal.address} (namespace ${config.temporal.namespace}), ` +
        `queues: ${queues}` + (queues === 'workflows' ? '\n' : `, ${config.subagent_runtime.max_running} subagent slots\n`),
    );
    await workers.run();
    return 0;
  } finally {
    await connection.close();
    await stores.close();
  }
}
