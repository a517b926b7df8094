import { mapChatMessagesToStoredMessages } from '@langchain/core/messages';
import type { LeadModelTurn, RewriteLeadTurnInput } from '../contracts';
import { messageKeys } from '../store';
import type { ActivityDeps } from './activity-deps';
import { toAiMessage, toLeadTurn } from './lead-turn';
import { parseActivityInput } from './parse-activity-input';
import { trimLeadMessage } from './trim-lead-message';

/**
 * Builds the `rewriteLeadTurn` activity: applies the workflow's delegation-limit decision to the
 * stored lead message, so the transcript the lead sees next never holds calls that did not run.
 */
export function createRewriteLeadTurn(deps: ActivityDeps) {
  return async function rewriteLeadTurn(raw: RewriteLeadTurnInput): Promise<LeadModelTurn> {
    const input = parseActivityInput('rewriteLeadTurn', raw);
    const key = messageKeys.ai(input.runId, input.turn);
    const stored = await deps.stores.messages.getMessage(input.threadId, key);
    if (stored === null) throw new Error(`No lead message ${key} in thread ${input.threadId}`);
    const trimmed = trimLeadMessage(toAiMessage(stored), input.keptToolCallIds, input.note);
    const [message] = mapChatMessagesToStoredMessages([trimmed]);
    if (message === undefined) throw new Error('Could not serialize the trimmed lead message');
    await deps.stores.messages.replaceMessage(input.threadId, key, message);
    return toLeadTurn(key, trimmed, input.modelName);
  };
}
