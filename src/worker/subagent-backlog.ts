import { temporal } from '@temporalio/proto';
import type { NativeConnection } from '@temporalio/worker';
import { SUBAGENT_TASK_QUEUE } from '../contracts';

/**
 * Reads how many `runSubagent` executions wait for a slot: the approximate backlog Temporal
 * reports for the `deerflow-subagents` activity task queue (across every worker of the namespace).
 */
export function subagentBacklogReader(connection: NativeConnection, namespace: string): () => Promise<number> {
  return async () => {
    const response = await connection.workflowService.describeTaskQueue({
      namespace,
      taskQueue: { name: SUBAGENT_TASK_QUEUE, kind: temporal.api.enums.v1.TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
      taskQueueType: temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY,
      reportStats: true,
    });
    return Number(response.stats?.approximateBacklogCount ?? 0);
  };
}
