/**
 * What a worker process needs: the workers, the workflow bundle, and the config and stores they are
 * built from (re-exported so that `deerflow-temporal/worker` alone runs a worker).
 */
export { createWorkers, workflowBundle, WORKER_QUEUES, SHUTDOWN_FORCE_MARGIN_MS } from './create-workers';
export type { CreateWorkersOptions, DeerflowWorkers, WorkerQueues } from './create-workers';
export { loadConfig } from '../config';
export type { LoadedConfig } from '../config';
export { openStores } from '../store';
export type { Stores, OpenStoresOptions } from '../store';
