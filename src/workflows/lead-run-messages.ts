import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type {
  AnswerClarificationRequest,
  AnswerClarificationResult,
  CancelTaskRequest,
  CancelTaskResult,
  ExtendTaskRequest,
  ExtendTaskResult,
  LeadRunState,
  TaskProgressReport,
} from '../contracts';

/** Live state of a lead run: tasks, statuses, stop reasons, usage. */
export const leadRunStateQuery = defineQuery<LeadRunState>('state');

/**
 * Cancels one running task of a lead run; the run and its other tasks go on, and the lead reads
 * `Task cancelled by user.` for it. An update: it returns once the task is terminal. Refused for an
 * unknown or already finished task.
 */
export const cancelTaskUpdate = defineUpdate<CancelTaskResult, [CancelTaskRequest]>('cancelTask');

/**
 * Moves one running task's deadline (and its safety net) by some seconds, up to the run's
 * `maxTaskExtensionSeconds` in total; refused once the task is terminal or the ceiling is reached.
 */
export const extendTaskUpdate = defineUpdate<ExtendTaskResult, [ExtendTaskRequest]>('extendTask');

/**
 * What a running task's execution has spent and found so far (usage, model, latest evidence), sent
 * by `runSubagent` after each model response; ignored once the task ended or for another attempt.
 */
export const taskProgressSignal = defineSignal<[TaskProgressReport]>('taskProgress');

/** A task's timeout right now (its own plus extensions), in seconds; 0 for a task the run does not know. */
export const taskTimeoutQuery = defineQuery<number, [string]>('taskTimeout');

/**
 * The user's answer to the question a lead run is waiting on (`ask_clarification`). The run goes on
 * with it as the user's next message; refused when no question is waiting.
 */
export const answerClarificationUpdate = defineUpdate<AnswerClarificationResult, [AnswerClarificationRequest]>('answerClarification');

/** Workflow id of a lead run; child workflow ids derive from it. */
export function leadRunWorkflowId(threadId: string, runId: string): string {
  return `lead-run:${threadId}:${runId}`;
}
