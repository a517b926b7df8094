/**
 * Raw-Temporal baseline workflow, bundled on its own (`bundleWorkflowCode`), never together with
 * the deerflow workflows. Only `@temporalio/workflow` and type imports are allowed here.
 */
import { executeChild, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { BaselineActivities, BaselineActivityName } from './baseline-activities';

/** Input of {@link baselineFanOutWorkflow}. */
export interface BaselineFanOutInput {
  /** How many no-op activities to run (at once, or one after another). */
  readonly count: number;
  /** Task queue of the activity worker (its slot count is the variant being measured). */
  readonly activityTaskQueue: string;
}

/** Runs `count` no-op activities in parallel and returns how many completed. */
export async function baselineFanOutWorkflow(input: BaselineFanOutInput): Promise<number> {
  const { noop } = proxyActivities<BaselineActivities>({
    taskQueue: input.activityTaskQueue,
    startToCloseTimeout: '1 minute',
    retry: { maximumAttempts: 1 },
  });
  const results = await Promise.all(Array.from({ length: input.count }, (_, index) => noop(index)));
  return results.length;
}

/** Runs `count` no-op activities one after another (each waits for the previous one) and returns how many completed. */
export async function baselineSequenceWorkflow(input: BaselineFanOutInput): Promise<number> {
  const { noop } = proxyActivities<BaselineActivities>({
    taskQueue: input.activityTaskQueue,
    startToCloseTimeout: '1 minute',
    retry: { maximumAttempts: 1 },
  });
  let done = 0;
  for (let index = 0; index < input.count; index++) {
    await noop(index);
    done += 1;
  }
  return done;
}

/** Input of {@link baselineLeadShapeWorkflow}. */
export interface BaselineLeadShapeInput {
  /** Tasks the run delegates, each one no-op activity on `activityTaskQueue`. */
  readonly tasks: number;
  /** Tasks per model step (the lead's task calls per response). */
  readonly callsPerTurn: number;
  readonly activityTaskQueue: string;
}

/**
 * Raw Temporal shape of a lead run: a no-op "model step" activity on the workflow's own task queue
 * (dispatched eagerly, as deerflow's `leadModelStep`), then that step's tasks as no-op activities
 * in parallel on `activityTaskQueue`, turn after turn, and a last model step for the answer.
 * Returns how many tasks completed.
 */
export async function baselineLeadShapeWorkflow(input: BaselineLeadShapeInput): Promise<number> {
  const { noop: modelStep } = proxyActivities<BaselineActivities>({ startToCloseTimeout: '1 minute', retry: { maximumAttempts: 1 } });
  const { noop: task } = proxyActivities<BaselineActivities>({
    taskQueue: input.activityTaskQueue,
    startToCloseTimeout: '1 minute',
    retry: { maximumAttempts: 1 },
  });
  let done = 0;
  for (let first = 0; first < input.tasks; first += input.callsPerTurn) {
    await modelStep(first);
    const calls = Math.min(input.callsPerTurn, input.tasks - first);
    done += (await Promise.all(Array.from({ length: calls }, (_, i) => task(first + i)))).length;
  }
  await modelStep(input.tasks);
  return done;
}

/** Input of {@link baselineWindowedBatchWorkflow}. */
export interface BaselineBatchInput {
  /** Child workflows to run, each one no-op activity. */
  readonly count: number;
  /** Children in flight at once (the batch's `max_live_items`). */
  readonly window: number;
  readonly activityTaskQueue: string;
  /** What each child runs. @default 'noop' */
  readonly activity?: BaselineActivityName;
}

/** A child of the baseline batch: one activity, by default the no-op one. */
export async function baselineItemWorkflow(activityTaskQueue: string, index: number, activity: BaselineActivityName = 'noop'): Promise<number> {
  const activities = proxyActivities<BaselineActivities>({ taskQueue: activityTaskQueue, startToCloseTimeout: '1 minute', retry: { maximumAttempts: 1 } });
  return activities[activity](index);
}

/**
 * Raw Temporal shape of a batch: `count` child workflows, at most `window` at once, each running
 * one no-op activity. Returns how many completed. (No continue-as-new: keep `count` under ~10,000.)
 */
export async function baselineWindowedBatchWorkflow(input: BaselineBatchInput): Promise<number> {
  let next = 0;
  let done = 0;
  const lane = async (): Promise<void> => {
    while (next < input.count) {
      const index = next++;
      await executeChild(baselineItemWorkflow, { args: [input.activityTaskQueue, index, input.activity ?? 'noop'], workflowId: `${workflowInfo().workflowId}/${index}` });
      done += 1;
    }
  };
  await Promise.all(Array.from({ length: Math.min(input.window, input.count) }, lane));
  return done;
}
