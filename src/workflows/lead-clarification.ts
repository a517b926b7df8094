import { condition, setCurrentDetails, upsertSearchAttributes } from '@temporalio/workflow';
import { SA_RUN_STATUS } from '../contracts/search-attributes';
import { bookkeeping } from './activity-proxies';
import type { LeadRunContext } from './lead-run-context';

/** `DeerflowRunStatus` of a run waiting for the user's answer to its question. */
export const WAITING_STATUS = 'waiting_for_answer';

/**
 * Waits durably (no worker slot held) for the answer to the run's question, up to the agent's
 * clarification timeout. Answered: the answer is written as the user's next message and the run
 * goes on (true). Unanswered: the run ends `needs_input` with the question as its final message.
 */
export async function awaitAnswer(run: LeadRunContext): Promise<boolean> {
  const { input, state } = run;
  const question = state.question;
  if (question === null) return true;
  upsertSearchAttributes([{ key: SA_RUN_STATUS, value: WAITING_STATUS }]);
  setCurrentDetails(`**waiting for the user's answer** · ${question.text}`);
  const timeoutSeconds = input.limits.clarificationTimeoutSeconds;
  const answered = await condition(() => run.answer !== null, timeoutSeconds * 1000);
  const { threadId, runId } = input;
  const base = { threadId, runId, callId: question.callId, question: question.text };
  if (!answered || run.answer === null) {
    await bookkeeping.recordClarification({ ...base, phase: 'timed_out', waitedSeconds: timeoutSeconds });
    state.status = 'needs_input';
    state.finalMessageRef = null;
    state.finalMessageBrief = question.text;
    return false;
  }
  await bookkeeping.recordClarification({ ...base, phase: 'answered', answer: run.answer });
  state.question = null;
  run.answer = null;
  upsertSearchAttributes([{ key: SA_RUN_STATUS, value: 'running' }]);
  return true;
}
