import { isCancellation } from '@temporalio/workflow';
import type { SubagentTaskInput } from '../contracts';
import { boundText } from '../contracts/bounded-text';
import { subagentTaskWire } from '../contracts/subagent-task-wire';
import { SUBAGENT_TASK_QUEUE } from '../contracts/task-queues';
import { subagents } from './activity-proxies';
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
export async function executeSubagent(execution: SubagentExecution): Promise<ExecutionOutcome> {
  try {
    const result = await subagents.runSubagent.executeWithOptions(
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
    );
    return { kind: 'result', result };
  } catch (err) {
    if (execution.rethrowCancellation && isCancellation(err)) throw err;
    return classifyActivityFailure(err);
  }
}
