import { HumanMessage, ToolMessage } from '@langchain/core/messages';
import {
  ASK_CLARIFICATION_TOOL_NAME,
  boundText,
  CLARIFICATION_EVENT_CATEGORY,
  type ClarificationEventName,
  type RecordClarificationInput,
} from '../contracts';
import { messageKeys } from '../store';
import type { ActivityDeps } from './activity-deps';
import { parseActivityInput } from './parse-activity-input';
import { putThreadMessage } from './thread-writes';

/** `additional_kwargs` flag of the user message that answers the run's own question. */
export const CLARIFICATION_ANSWER_KWARG = 'clarification_answer';

/**
 * Builds the `recordClarification` activity: writes what happened to the run's question, keyed by
 * the call's id (first write wins). Asked: the call's tool message (so the thread never holds the
 * call unanswered while the run waits) and `clarification.asked`, which `deerflow run` and SSE
 * clients show the user. Answered: the answer as the user's next message, and
 * `clarification.answered`. Unanswered: `clarification.timed_out`.
 */
export function createRecordClarification(deps: ActivityDeps) {
  return async function recordClarification(raw: RecordClarificationInput): Promise<void> {
    const input = parseActivityInput('recordClarification', raw);
    const { threadId, runId, callId } = input;
    const event = (name: ClarificationEventName, payload: Record<string, unknown>) =>
      deps.stores.events.putBatch([
        { dedupeKey: `${name}:${threadId}:${runId}:${callId}`, runId, threadId, category: CLARIFICATION_EVENT_CATEGORY, event: name, taskId: callId, payload: { call_id: callId, question: input.question, ...payload } },
      ]);
    switch (input.phase) {
      case 'asked': {
        const asked = new ToolMessage({
          content: `Asked the user: ${input.question}\nTheir answer follows as their next message.`,
          tool_call_id: input.toolCallId,
          name: ASK_CLARIFICATION_TOOL_NAME,
        });
        await putThreadMessage(deps, threadId, runId, messageKeys.tool(runId, callId), asked);
        await event('clarification.asked', {});
        return;
      }
      case 'answered': {
        const answer = new HumanMessage({ content: input.answer, additional_kwargs: { run_id: runId, [CLARIFICATION_ANSWER_KWARG]: true } });
        await putThreadMessage(deps, threadId, runId, messageKeys.answer(runId, callId), answer);
        await event('clarification.answered', { answer: boundText(input.answer) });
        return;
      }
      case 'timed_out':
        await event('clarification.timed_out', { waited_seconds: input.waitedSeconds });
        return;
      default: {
        const unreachable: never = input;
        throw new Error(`unknown clarification phase ${JSON.stringify(unreachable)}`);
      }
    }
  };
}
