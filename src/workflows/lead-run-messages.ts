import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { AnswerClarificationRequest, AnswerClarificationResult, CancelTaskRequest, CancelTaskResult, LeadRunState } from '../contracts';

/** Live state of a lead run: tasks, statuses, stop reasons, usage. */
export const leadRunStateQuery = defineQuery<LeadRunState>('state');

/**
 * Cancels one running task of a lead run; the run and its other tasks go on, and the lead reads
 * `Task cancelled by user.` for it. An update: it returns once the task is terminal. Refused for an
 * unknown or already finished task.
 */
export const cancelTaskUpdate = defineUpdate<CancelTaskResult, [CancelTaskRequest]>('cancelTask');

/**
 * The user's answer to the question a lead run is waiting on (`ask_clarification`). The run goes on
 * with it as the user's next message; refused when no question is waiting.
 */
export const answerClarificationUpdate = defineUpdate<AnswerClarificationResult, [AnswerClarificationRequest]>('answerClarification');

/** Workflow id of a lead run; child workflow ids derive from it. */
export function leadRunWorkflowId(threadId: string, runId: string): string {
  return `lead-run:${threadId}:${runId}`;
}
