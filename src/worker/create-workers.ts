import { bundleWorkflowCode, type NativeConnection, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { createBatchItemActivities, createLeadActivities, createSubagentActivities, HEARTBEAT_INTERVAL_MS, type ActivityDeps } from '../activities';
import { DEFAULT_WORKFLOW_STACK_TRACE_LIMIT, type LoadedConfig } from '../config';
import { BATCH_ITEM_TASK_QUEUE, CONFIGURATION_ERROR_TYPE, SUBAGENT_TASK_QUEUE, WORKFLOW_TASK_QUEUE } from '../contracts';
import type { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import { ApplicationFailure } from '@temporalio/common';
import { DefinePlugin, type Configuration } from 'webpack';
import { subagentBacklogReader } from './subagent-backlog';
import { createChatModel, findModelConfig, isModelError, ModelErrorCode, type ModelRole } from '../models';
import type { Stores } from '../store';
import { McpToolRegistry } from '../mcp';
import { activityIdsInterceptor, TRACING_WORKFLOW_INTERCEPTOR_MODULE, workerTracingOptions, type Tracing } from '../telemetry';

/** How long past the shutdown grace a worker waits for cancelled activities before it gives up on them. */
export const SHUTDOWN_FORCE_MARGIN_MS = 15_000;

const bundles = new Map<string, Promise<WorkflowBundleWithSourceMap>>();

/** How a worker's workflow bundle differs from the plain one. */
export interface WorkflowBundleOptions {
  /** With the OpenTelemetry workflow interceptors. */
  readonly traced?: boolean;
  /** `worker.workflow_stack_trace_limit`: null = V8's default; absent = the config's default. */
  readonly stackTraceLimit?: number | null;
}

/**
 * The workflow bundle, built once per process and kind (bundling takes seconds). The traced one adds
 * the OpenTelemetry workflow interceptors; interceptors add no commands, so both replay the same
 * histories. A stack trace limit is set by a preloaded module with the value defined at bundle time
 * (`workflows/stack-trace-limit.ts`); stacks decide no command either.
 */
export function workflowBundle(options: WorkflowBundleOptions = {}): Promise<WorkflowBundleWithSourceMap> {
  const traced = options.traced ?? false;
  const stackTraceLimit = options.stackTraceLimit === undefined ? DEFAULT_WORKFLOW_STACK_TRACE_LIMIT : options.stackTraceLimit;
  const key = `${traced}:${stackTraceLimit}`;
  let bundle = bundles.get(key);
  if (bundle === undefined) {
    bundle = bundleWorkflowCode({
      workflowsPath: require.resolve('../workflows'),
      // Run once per V8 context, before the SDK freezes its globals: the schema cache every workflow
      // of the context shares, and the stack trace limit when one is set (see the modules).
      preloadModules: [
        require.resolve('../workflows/input-schemas'),
        ...(stackTraceLimit === null ? [] : [require.resolve('../workflows/stack-trace-limit')]),
      ],
      ...(traced ? { workflowInterceptorModules: [TRACING_WORKFLOW_INTERCEPTOR_MODULE] } : {}),
      ...(stackTraceLimit === null ? {} : { webpackConfigHook: definingStackTraceLimit(stackTraceLimit) }),
      logger: quietBundlerLogger,
    });
    bundles.set(key, bundle);
  }
  return bundle;
}

/** Defines the limit `workflows/stack-trace-limit.ts` sets, as a literal in the bundle. */
function definingStackTraceLimit(limit: number): (config: Configuration) => Configuration {
  return (config) => ({ ...config, plugins: [...(config.plugins ?? []), new DefinePlugin({ DEERFLOW_WORKFLOW_STACK_TRACE_LIMIT: String(limit) })] });
}

const quietBundlerLogger = {
  log: () => undefined,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: (message: string) => console.warn(message),
  error: (message: string) => console.error(message),
};

export interface CreateWorkersOptions {
  readonly connection: NativeConnection;
  readonly namespace: string;
  readonly loaded: LoadedConfig;
  readonly stores: Stores;
  /** Clock for prompt dates; tests pin it. */
  readonly now?: () => Date;
  /** LangChain callback handlers attached to every chat model (tracing; tests record requests). */
  readonly modelCallbacks?: readonly BaseCallbackHandler[];
  /**
   * Which task queues this process serves: all (default), or the workflow queue or the subagent and
   * batch item queues only, for deployments that run dedicated subagent worker pools next to
   * workflow workers.
   */
  readonly queues?: WorkerQueues;
  /** Where MCP `env`/`headers` references are read. @default process.env */
  readonly env?: NodeJS.ProcessEnv;
  /** The process's tracing (see `startTracing`): workflow and activity spans. @default none: no spans */
  readonly tracing?: Tracing | null;
}

/** The task queues a worker process serves. */
export const WORKER_QUEUES = ['all', 'workflows', 'subagents'] as const;
export type WorkerQueues = (typeof WORKER_QUEUES)[number];

/** The workers of one process: workflows and lead activities, the subagent slots, the batch item slots. */
export interface DeerflowWorkers {
  /** The `deerflow` queue worker (workflows, lead activities), unless this process serves subagents only. */
  readonly workflow: Worker | null;
  /** The `deerflow-subagents` queue worker, unless this process serves workflows only. */
  readonly subagents: Worker | null;
  /** The `deerflow-batch-items` queue worker, where the subagent worker is. */
  readonly batchItems: Worker | null;
  /** Runs the workers until `shutdown()` (or a fatal error). */
  run(): Promise<void>;
  /**
   * Stops polling at once; running activities get `worker.shutdown_grace_seconds` to finish, then
   * are cancelled and retried elsewhere. `run()` resolves when everything has stopped.
   */
  shutdown(): void;
}

/**
 * Creates the workers of one process. The subagent worker runs at most
 * `subagent_runtime.max_running` activities at once: that is this process's subagent capacity for
 * lead runs. Batch items run on a queue of their own with as many slots again, so a batch's waiting
 * items never hold up a lead run's tasks; each batch's `max_running_items` is enforced by leases.
 */
export async function createWorkers(options: CreateWorkersOptions): Promise<DeerflowWorkers> {
  const { config, dir } = options.loaded;
  // One client per MCP server for this process. The first attempts finish (bounded by each server's
  // timeout) before polling starts, so the first tasks see the tools; a server that failed is retried
  // in the background and never stops the worker.
  const mcp = McpToolRegistry.fromConfig(config, { configDir: dir, env: options.env });
  await mcp.start();
  const deps = {
    mcp,
    config,
    stores: options.stores,
    now: options.now,
    subagentBacklog: subagentBacklogReader(options.connection, options.namespace),
    createModel: (modelName: string, role: ModelRole, handlers: readonly BaseCallbackHandler[] = []) => {
      const callbacks = [...(options.modelCallbacks ?? []), ...handlers];
      try {
        return createChatModel(findModelConfig(config.models, modelName), { configDir: dir, role, ...(callbacks.length > 0 ? { callbacks } : {}) });
      } catch (err) {
        // A missing model, key or scenario will not fix itself: fail at once instead of retrying.
        if (isModelError(err) && err.code !== ModelErrorCode.ScriptedProvider) {
          throw ApplicationFailure.nonRetryable(err.message, CONFIGURATION_ERROR_TYPE);
        }
        throw err;
      }
    },
  };
  try {
    return await startWorkers(options, deps, mcp);
  } catch (err) {
    await mcp.close();
    throw err;
  }
}

async function startWorkers(options: CreateWorkersOptions, deps: ActivityDeps, mcp: McpToolRegistry): Promise<DeerflowWorkers> {
  const { config } = options.loaded;
  const queues = options.queues ?? 'all';
  // After the grace the SDK cancels running activities (reason WORKER_SHUTDOWN); they end as a
  // retryable failure so another worker takes them over at once. The force time bounds a tool that
  // ignores its abort signal, so a deploy never hangs on it.
  const graceMs = config.worker.shutdown_grace_seconds * 1000;
  const shutdown = { shutdownGraceTime: graceMs, shutdownForceTime: graceMs + SHUTDOWN_FORCE_MARGIN_MS };
  const tracing = options.tracing ? workerTracingOptions(options.tracing) : null;
  // The ids interceptor comes after the tracing one, so it finds the activity's span active.
  const observed = {
    interceptors: {
      activity: [...(tracing?.activityInterceptors ?? []), activityIdsInterceptor],
      ...(tracing === null ? {} : { client: tracing.clientInterceptors }),
    },
    ...(tracing === null ? {} : { sinks: tracing.sinks }),
  };
  const workflow = queues === 'subagents' ? null : await Worker.create({
    connection: options.connection,
    namespace: options.namespace,
    taskQueue: WORKFLOW_TASK_QUEUE,
    workflowBundle: await workflowBundle({ traced: tracing !== null, stackTraceLimit: config.worker.workflow_stack_trace_limit }),
    activities: createLeadActivities(deps),
    maxHeartbeatThrottleInterval: HEARTBEAT_INTERVAL_MS,
    ...observed,
    ...shutdown,
  });
  const subagentSlots = {
    connection: options.connection,
    namespace: options.namespace,
    maxConcurrentActivityTaskExecutions: config.subagent_runtime.max_running,
    // Cancellation reaches an activity only through a heartbeat response: send them often enough
    // that cancelling a run stops its subagents within seconds (the SDK default waits up to 24 s).
    maxHeartbeatThrottleInterval: HEARTBEAT_INTERVAL_MS,
    ...observed,
    ...shutdown,
  };
  const subagents = queues === 'workflows' ? null : await Worker.create({ ...subagentSlots, taskQueue: SUBAGENT_TASK_QUEUE, activities: createSubagentActivities(deps) });
  const batchItems = queues === 'workflows' ? null : await Worker.create({ ...subagentSlots, taskQueue: BATCH_ITEM_TASK_QUEUE, activities: createBatchItemActivities(deps) });
  const workers = [workflow, subagents, batchItems].filter((w): w is Worker => w !== null);
  return {
    workflow,
    subagents,
    batchItems,
    run: async () => {
      try {
        await Promise.all(workers.map((w) => w.run()));
      } finally {
        // After the workers stopped: no activity still calls a server.
        await mcp.close();
      }
    },
    shutdown: () => {
      for (const worker of workers) if (worker.getState() === 'RUNNING') worker.shutdown();
    },
  };
}
