import type { SubagentProgress } from './subagent-progress';
import type { TaskState } from './workflow-io';

/** The fields of a task that say what its executions spent and found. */
type SpendFields = Pick<TaskState, 'usage' | 'modelName' | 'evidence' | 'resumedSteps'>;

/**
 * Copies what an execution reported (its progress) onto its task: usage, model, latest evidence,
 * and where it resumed. A report without a model name keeps the one the task has. Pure data, no
 * zod: workflow code applies reports with it.
 */
export function applyProgress(task: SpendFields, progress: SubagentProgress): void {
  task.modelName = progress.modelName ?? task.modelName;
  task.usage = progress.usage;
  task.evidence = progress.evidence ?? null;
  if (progress.resumedFrom !== undefined) task.resumedSteps = progress.resumedFrom;
}
