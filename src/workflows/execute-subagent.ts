import { isCancellation } from '@temporalio/workflow';
import type { BatchItemExecution, FinishedBatchItem, SubagentExecutionResult, SubagentTaskInput } from '../contracts';
import { boundText } from '../contracts/bounded-text';
import { subagentTaskWire } from '../contracts/subagent-task-wire';
import { BATCH_ITEM_TASK_QUEUE, SUBAGENT_TASK_QUEUE } from '../contracts/task-queues';
import { batchItems, subagents } from './activity-proxies';
import { classifyActivityFailure } from './classify-activity-failure';
import type { ExecutionOutcome } from './execution-outcome';

/** One `runSubagent` execution as a lead task or a batch item schedules it. */
export interface SubagentExecution {
  /** Unique per schedule of the workflow (a retried or rescheduled attempt gets its own). */
  readonly activityId: string;
  /** What Temporal Web shows for the activity: `<subagent>: <description>`. */
  readonly subagentName: string;
  readonly description: string;
  /** How long it may wait for a subagent slot (admission's queue timeout). */
  readonly scheduleToStartSeconds: number;
  readonly startToCloseSeconds: number;
  readonly heartbeatSeconds: number;
  /**
   * A batch item rethrows its own cancellation (it ends the item at once); a lead task receives it
   * as the `cancelled` outcome (its run decides what a cancellation means).
   */
  readonly rethrowCancellation: boolean;
  readonly input: SubagentTaskInput;
}

/**
 * Runs one execution with no Temporal retries (the workflow decides on another attempt) and turns
 * its result or failure into an {@link ExecutionOutcome}.
 */
export function executeSubagent(execution: SubagentExecution): Promise<ExecutionOutcome> {
  return outcomeOf(execution.rethrowCancellation, () =>
    subagents.runSubagent.executeWithOptions(
      {
        taskQueue: SUBAGENT_TASK_QUEUE,
        activityId: execution.activityId,
        summary: boundText(`${execution.subagentName}: ${execution.description}`, 200),
        scheduleToStartTimeout: execution.scheduleToStartSeconds * 1000,
        startToCloseTimeout: execution.startToCloseSeconds * 1000,
        heartbeatTimeout: execution.heartbeatSeconds * 1000,
        retry: { maximumAttempts: 1 },
      },
      [subagentTaskWire(execution.input)],
    ),
  );
}

/** One leased try of a batch item, as the item workflow schedules it. */
export interface BatchItemTry {
  readonly activityId: string;
  readonly subagentName: string;
  readonly item: BatchItemExecution;
  /**
   * The subagent's execution cap, enforced by the execution from when it took its lease; the
   * activity's start-to-close adds one lease length for the wait, as a backstop.
   */
  readonly timeoutSeconds: number;
  readonly leaseSeconds: number;
  readonly pollIntervalSeconds: number;
}

/** How a leased try ended, and the item's end when the try wrote it (a completed try). */
export interface BatchItemTryOutcome {
  readonly outcome: ExecutionOutcome;
  readonly finished: FinishedBatchItem | null;
}

/**
 * Runs one try of a batch item as `runBatchItem` on the batch item queue, with no Temporal retries.
 * It waits on that queue for a slot with no timeout of its own (the batch's window bounds how many
 * wait), then for one of its batch's leases (at most one lease length: a capacity wait after that).
 * Its own cancellation is rethrown: it ends the item at once.
 */
export async function executeBatchItemTry(itemTry: BatchItemTry): Promise<BatchItemTryOutcome> {
  let finished: FinishedBatchItem | null = null;
  const outcome = await outcomeOf(true, async () => {
    const ran = await batchItems.runBatchItem.executeWithOptions(
      {
        taskQueue: BATCH_ITEM_TASK_QUEUE,
        activityId: itemTry.activityId,
        summary: boundText(`${itemTry.subagentName}: ${itemTry.item.key}`, 200),
        startToCloseTimeout: (itemTry.timeoutSeconds + itemTry.leaseSeconds) * 1000,
        heartbeatTimeout: itemTry.leaseSeconds * 1000,
        retry: { maximumAttempts: 1 },
      },
      [{ item: itemTry.item, timeoutSeconds: itemTry.timeoutSeconds, leaseSeconds: itemTry.leaseSeconds, pollIntervalSeconds: itemTry.pollIntervalSeconds }],
    );
    finished = ran.finished;
    return ran.result;
  });
  return { outcome, finished };
}

/**
 * A `then`, not an async function with an await: every promise workflow code creates costs the SDK a
 * stack trace (its stack trace query), and this runs once per execution.
 */
function outcomeOf(rethrowCancellation: boolean, run: () => Promise<SubagentExecutionResult>): Promise<ExecutionOutcome> {
  return run().then(
    (result): ExecutionOutcome => ({ kind: 'result', result }),
    (err: unknown) => {
      if (rethrowCancellation && isCancellation(err)) throw err;
      return classifyActivityFailure(err);
    },
  );
}
