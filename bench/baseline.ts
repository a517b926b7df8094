import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { bundleWorkflowCode, Worker, type NativeConnection, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { baselineActivities, type BaselineActivities } from './baseline-activities';
import type { BaselineFanOutInput, BaselineLeadShapeInput } from './baseline-workflows';
import { quietBundlerLogger } from './logging';

/** Task queue of the baseline workflow (its own: never shared with deerflow's queues). */
export const BASELINE_WORKFLOW_TASK_QUEUE = 'bench-baseline';

/** Task queue of the baseline activity worker that has `slots` activity slots. */
export function baselineActivityTaskQueue(slots: number): string {
  return `bench-baseline-activities-${slots}`;
}

/** The baseline's workers: one workflow worker plus one activity worker per slot count. */
export interface BaselineWorkers {
  run(): Promise<void>;
  shutdown(): void;
}

/** `baseline-workflows.ts` bundled on its own, once per process (the batch benchmark starts workers on many servers). */
let baselineBundle: Promise<WorkflowBundleWithSourceMap> | undefined;

/**
 * Bundles `baseline-workflows.ts` on its own (once) and creates the baseline workers. Like deerflow, the
 * workflow worker uses the SDK defaults and each activity worker is bounded only by its slots; with
 * `agentTask`, the activity workers also run the in-process agent anchor.
 */
export async function createBaselineWorkers(
  connection: NativeConnection,
  namespace: string,
  slotCounts: readonly number[],
  agentTask?: BaselineActivities['agentTask'],
): Promise<BaselineWorkers> {
  baselineBundle ??= bundleWorkflowCode({ workflowsPath: require.resolve('./baseline-workflows'), logger: quietBundlerLogger });
  const workflowBundle = await baselineBundle;
  const workers: Worker[] = [
    // Its `noop` is the lead-shape anchor's model step, dispatched eagerly like `leadModelStep`.
    await Worker.create({ connection, namespace, taskQueue: BASELINE_WORKFLOW_TASK_QUEUE, workflowBundle, activities: baselineActivities() }),
  ];
  for (const slots of new Set(slotCounts)) {
    workers.push(
      await Worker.create({
        connection,
        namespace,
        taskQueue: baselineActivityTaskQueue(slots),
        activities: baselineActivities(agentTask),
        maxConcurrentActivityTaskExecutions: slots,
      }),
    );
  }
  return {
    run: async () => {
      await Promise.all(workers.map((w) => w.run()));
    },
    shutdown: () => {
      for (const worker of workers) if (worker.getState() === 'RUNNING') worker.shutdown();
    },
  };
}

/** Starts one baseline workflow running `count` no-op activities in parallel and waits for it; returns its id. */
export async function runBaseline(client: Client, count: number, slots: number): Promise<string> {
  return executeBaseline(client, 'baselineFanOutWorkflow', `bench-baseline-${count}-${slots}`, count, slots);
}

/** Starts one baseline workflow running `count` no-op activities one after another and waits for it; returns its id. */
export async function runBaselineSequence(client: Client, count: number, slots: number): Promise<string> {
  return executeBaseline(client, 'baselineSequenceWorkflow', `bench-baseline-seq-${count}-${slots}`, count, slots);
}

/** The lead runs of one repetition: started at once, `tasksPerRun[i]` tasks each, `callsPerTurn` per model step. */
export interface LeadShapePlan {
  readonly tasksPerRun: readonly number[];
  readonly callsPerTurn: number;
}

/**
 * Starts one {@link baselineLeadShapeWorkflow} per planned lead run at once, eagerly as deerflow's
 * runs start (`client` must be on the workers' `NativeConnection`), and waits for all; returns
 * their ids.
 */
export async function runBaselineLeadShape(client: Client, plan: LeadShapePlan, slots: number): Promise<string[]> {
  const handles = await Promise.all(
    plan.tasksPerRun.map((tasks) => {
      const input: BaselineLeadShapeInput = { tasks, callsPerTurn: plan.callsPerTurn, activityTaskQueue: baselineActivityTaskQueue(slots) };
      return client.workflow.start('baselineLeadShapeWorkflow', {
        taskQueue: BASELINE_WORKFLOW_TASK_QUEUE,
        workflowId: `bench-baseline-lead-${tasks}-${randomUUID()}`,
        args: [input],
        requestEagerStart: true,
      });
    }),
  );
  const done = await Promise.all(handles.map((h) => h.result() as Promise<number>));
  done.forEach((count, i) => {
    const expected = plan.tasksPerRun[i];
    if (count !== expected) throw new Error(`baseline lead-shape workflow ${handles[i]?.workflowId ?? '?'} completed ${String(count)} of ${String(expected)} tasks`);
  });
  return handles.map((h) => h.workflowId);
}

async function executeBaseline(
  client: Client,
  workflowType: 'baselineFanOutWorkflow' | 'baselineSequenceWorkflow',
  idPrefix: string,
  count: number,
  slots: number,
): Promise<string> {
  const workflowId = `${idPrefix}-${randomUUID()}`;
  const input: BaselineFanOutInput = { count, activityTaskQueue: baselineActivityTaskQueue(slots) };
  const done = await client.workflow.execute(workflowType, {
    taskQueue: BASELINE_WORKFLOW_TASK_QUEUE,
    workflowId,
    args: [input],
  });
  if (done !== count) throw new Error(`baseline workflow ${workflowId} completed ${String(done)} of ${count} activities`);
  return workflowId;
}
