import { HumanMessage, type BaseMessage } from '@langchain/core/messages';
import { lastGenuineUserMessageIndex, sanitizeUserContent } from '../middleware';

/**
 * The lead's request with the latest genuine user message framed as untrusted input (SPEC §6.9),
 * as the lead prompt promises. Request-only: the stored transcript keeps what the user wrote.
 */
export function frameLatestUserInput(messages: readonly BaseMessage[]): BaseMessage[] {
  const index = lastGenuineUserMessageIndex(messages);
  const target = messages[index];
  const sanitized = target ? sanitizeUserContent(target) : null;
  if (target === undefined || sanitized === null) return [...messages];
  const framed = new HumanMessage({
    content: sanitized.content as HumanMessage['content'],
    additional_kwargs: sanitized.additional_kwargs,
    id: target.id,
    name: target.name,
  });
  return messages.map((m, i) => (i === index ? framed : m));
}
