import type { FinishedTask, TaskState } from './workflow-io';

/** Drops the fields activities do not need (see {@link FinishedTaskSchema}). */
export function finishedTask(task: TaskState): FinishedTask {
  const { resultBrief: _brief, ...rest } = task;
  return rest;
}
