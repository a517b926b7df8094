/**
 * What a worker process needs: the workers, the workflow bundle (and the replay of a history on it),
 * and the config and stores they are built from (re-exported so that `deerflow-temporal/worker` alone
 * runs a worker).
 */
export { createWorkers, workflowBundle, WORKER_QUEUES, SHUTDOWN_FORCE_MARGIN_MS } from './create-workers';
export type { CreateWorkersOptions, DeerflowWorkers, WorkerQueues } from './create-workers';
export { replayWorkflowHistory } from './replay-history';
export { loadConfig, temporalConnectionOptions } from '../config';
export type { LoadedConfig, TemporalConnectionOptions } from '../config';
export { installWorkerRuntime, logLevelFromEnv } from './install-runtime';
export type { WorkerRuntimeOptions } from './install-runtime';
export { startTracing, startConfiguredTracing } from '../telemetry';
export type { Tracing, TracingOptions } from '../telemetry';
export { openConfiguredStores, openStores } from '../store';
export type { Stores, OpenStoresOptions } from '../store';
