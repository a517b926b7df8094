/**
 * Raw-Temporal baseline workflow, bundled on its own (`bundleWorkflowCode`), never together with
 * the deerflow workflows. Only `@temporalio/workflow` and type imports are allowed here.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { BaselineActivities } from './baseline-activities';

/** Input of {@link baselineFanOutWorkflow}. */
export interface BaselineFanOutInput {
  /** How many no-op activities to run at once. */
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
