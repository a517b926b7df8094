import { temporal } from '@temporalio/proto';
import type { NativeConnection } from '@temporalio/worker';
import { SUBAGENT_TASK_QUEUE } from '../contracts';
import { reusedReading } from './reused-reading';

/**
 * How long one backlog reading serves this worker's admissions. Temporal itself serves task-queue
 * stats from a cache (`matching.TaskQueueInfoByBuildIdTTL`, 5 s by default): a reading asked for
 * sooner would not be fresher, and the lead turns of many runs cost one request a second.
 */
export const BACKLOG_READING_MAX_AGE_MS = 1_000;

/**
 * Reads how many `runSubagent` executions wait for a slot: the approximate backlog Temporal
 * reports for the `deerflow-subagents` activity task queue (across every worker of the namespace),
 * reused for {@link BACKLOG_READING_MAX_AGE_MS}.
 */
export function subagentBacklogReader(connection: NativeConnection, namespace: string): () => Promise<number> {
  return reusedReading(async () => {
    const response = await connection.workflowService.describeTaskQueue({
      namespace,
      taskQueue: { name: SUBAGENT_TASK_QUEUE, kind: temporal.api.enums.v1.TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
      taskQueueType: temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY,
      reportStats: true,
    });
    return Number(response.stats?.approximateBacklogCount ?? 0);
  }, BACKLOG_READING_MAX_AGE_MS);
}
