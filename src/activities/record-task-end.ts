import {
  SUBAGENT_EVENT_CATEGORY,
  SUBAGENT_STEP_MAX_CHARS,
  TASK_END_EVENT,
  type FinishedTask,
  type SubagentEndPayload,
  type TaskEndEventInput,
} from '../contracts';
import type { NewRunEvent, TaskResultStore } from '../store';
import type { ActivityDeps } from './activity-deps';
import { parseActivityInput } from './parse-activity-input';
import { dropCheckpoints } from './subagent-checkpoint';

/** `text` cut at the step limit, and whether it was cut. */
export function cappedEventText(text: string): { text: string; truncated: boolean } {
  return text.length > SUBAGENT_STEP_MAX_CHARS ? { text: text.slice(0, SUBAGENT_STEP_MAX_CHARS), truncated: true } : { text, truncated: false };
}

/**
 * The one `subagent.end` row of a task, keyed by thread, run and task id so that a retried write,
 * a late duplicate or a run id reused in another thread can never add or hide one.
 * @throws Error when the task is not terminal
 */
export async function taskEndEvent(results: TaskResultStore, threadId: string, runId: string, task: FinishedTask): Promise<NewRunEvent> {
  if (task.status === 'pending' || task.status === 'running') throw new Error(`Task ${task.taskId} is not terminal (${task.status})`);
  const payload: SubagentEndPayload = {
    task_id: task.taskId,
    status: task.status === 'polling_timed_out' ? 'timed_out' : task.status,
  };
  if (task.modelName) payload.model_name = task.modelName;
  if (task.usage) payload.usage = task.usage;
  if (task.stopReason) payload.stop_reason = task.stopReason;
  if (task.attempts > 0) payload.attempts = task.attempts;
  if (task.resumedSteps !== undefined && task.resumedSteps > 0) payload.resumed_steps = task.resumedSteps;
  if (task.status === 'completed' && task.resultRef) {
    const { text, truncated } = cappedEventText((await results.getResult(task.resultRef)) ?? '');
    payload.result = text;
    if (truncated) payload.result_truncated = true;
  }
  if (task.status !== 'completed' && task.error) {
    const { text, truncated } = cappedEventText(task.error);
    payload.error = text;
    if (truncated) payload.error_truncated = true;
  }
  return {
    dedupeKey: `end:${threadId}:${runId}:${task.taskId}`,
    runId,
    threadId,
    category: SUBAGENT_EVENT_CATEGORY,
    event: TASK_END_EVENT,
    taskId: task.taskId,
    payload,
  };
}

/**
 * Deletes the checkpoints an ended task's executions could not: one that timed out, was abandoned
 * on cancellation, or ran out of attempts on lost workers ends without its own cleanup. A completed
 * task's execution deleted them before it returned.
 */
export async function dropEndedTaskCheckpoints(deps: ActivityDeps, threadId: string, runId: string, task: FinishedTask): Promise<void> {
  if (!deps.config.subagents.resume || task.status === 'completed' || task.attempts === 0) return;
  await dropCheckpoints(deps.stores.checkpoints, { threadId, runId, taskId: task.taskId }, task.attempts);
}

/** Builds the writer of a task's single `subagent.end` row (and the cleanup of its checkpoints). */
export function createTaskEndWriter(deps: ActivityDeps) {
  return async function writeTaskEnd(input: TaskEndEventInput): Promise<void> {
    await deps.stores.events.putBatch([await taskEndEvent(deps.stores.results, input.threadId, input.runId, input.task)]);
    await dropEndedTaskCheckpoints(deps, input.threadId, input.runId, input.task);
  };
}

/** Builds the `recordTaskEnd` activity (runs recorded before outcomes were written at once). */
export function createRecordTaskEnd(deps: ActivityDeps) {
  const writeTaskEnd = createTaskEndWriter(deps);
  return async function recordTaskEnd(raw: TaskEndEventInput): Promise<void> {
    await writeTaskEnd(parseActivityInput('recordTaskEnd', raw));
  };
}
