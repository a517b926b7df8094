import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import { messageText } from '../contracts';

/** What a subagent returns when no text survived (SPEC §2.7). */
export const NO_RESPONSE_SENTINEL = 'No response generated';

/** The last assistant message's text, else the last message's text, else the sentinel. */
export function extractFinalResult(messages: readonly BaseMessage[]): string {
  const lastAi = [...messages].reverse().find((m) => AIMessage.isInstance(m));
  const source = lastAi ?? messages[messages.length - 1];
  const text = source ? messageText(source.content).trim() : '';
  return text || NO_RESPONSE_SENTINEL;
}
