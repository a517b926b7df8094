import {
  SUBAGENT_EVENT_CATEGORY,
  SUBAGENT_STEP_MAX_CHARS,
  type SubagentEndPayload,
  type TaskEndEventInput,
} from '../contracts';
import type { ActivityDeps } from './activity-deps';

function capped(text: string): { text: string; truncated: boolean } {
  return text.length > SUBAGENT_STEP_MAX_CHARS ? { text: text.slice(0, SUBAGENT_STEP_MAX_CHARS), truncated: true } : { text, truncated: false };
}

/**
 * Builds the `recordTaskEnd` activity: the one `subagent.end` row of a task, keyed by task id so
 * a retried write or a late duplicate can never add a second one.
 */
export function createRecordTaskEnd(deps: ActivityDeps) {
  return async function recordTaskEnd(input: TaskEndEventInput): Promise<void> {
    const task = input.task;
    if (task.status === 'pending' || task.status === 'running') throw new Error(`Task ${task.taskId} is not terminal (${task.status})`);
    const payload: SubagentEndPayload = {
      task_id: task.taskId,
      status: task.status === 'polling_timed_out' ? 'timed_out' : task.status,
    };
    if (task.modelName) payload.model_name = task.modelName;
    if (task.usage) payload.usage = task.usage;
    if (task.stopReason) payload.stop_reason = task.stopReason;
    if (task.status === 'completed' && task.resultRef) {
      const full = (await deps.stores.results.getResult(task.resultRef)) ?? '';
      const { text, truncated } = capped(full);
      payload.result = text;
      if (truncated) payload.result_truncated = true;
    }
    if (task.status !== 'completed' && task.error) {
      const { text, truncated } = capped(task.error);
      payload.error = text;
      if (truncated) payload.error_truncated = true;
    }
    await deps.stores.events.putBatch([
      {
        dedupeKey: `end:${input.runId}:${task.taskId}`,
        runId: input.runId,
        threadId: input.threadId,
        category: SUBAGENT_EVENT_CATEGORY,
        event: 'subagent.end',
        taskId: task.taskId,
        payload,
      },
    ]);
  };
}
