import { AIMessage, type MessageContent } from '@langchain/core/messages';

function appendNote(content: MessageContent, note: string): MessageContent {
  if (typeof content === 'string') {
    if (content.endsWith(note)) return content;
    return content === '' ? note : `${content}\n\n${note}`;
  }
  const last = content[content.length - 1];
  if (last !== undefined && typeof last === 'object' && 'text' in last && last.text === `\n\n${note}`) return content;
  return [...content, { type: 'text', text: `\n\n${note}` }];
}

/**
 * The lead's message after the delegation limit (SPEC §6.1 step 8): only the kept tool calls,
 * the provider's raw tool-call metadata synced to them, finish reason `stop` when none remain,
 * and the limit note appended when given. Same id, so it replaces the original. Idempotent.
 */
export function trimLeadMessage(message: AIMessage, keptToolCallIds: readonly string[], note: string | null): AIMessage {
  const kept = new Set(keptToolCallIds);
  const toolCalls = (message.tool_calls ?? []).filter((c) => c.id !== undefined && kept.has(c.id));
  const kwargs: Record<string, unknown> = { ...message.additional_kwargs };
  const raw = Array.isArray(kwargs.tool_calls) ? (kwargs.tool_calls as Array<{ id?: unknown }>) : null;
  if (raw !== null) {
    const rawKept = raw.filter((c) => typeof c.id === 'string' && kept.has(c.id));
    if (rawKept.length > 0) kwargs.tool_calls = rawKept;
    else delete kwargs.tool_calls;
  }
  const metadata: Record<string, unknown> = { ...message.response_metadata };
  if (toolCalls.length === 0) {
    delete kwargs.function_call;
    if (metadata.finish_reason === 'tool_calls') metadata.finish_reason = 'stop';
  }
  return new AIMessage({
    id: message.id,
    content: note === null ? message.content : appendNote(message.content, note),
    tool_calls: toolCalls,
    invalid_tool_calls: message.invalid_tool_calls,
    usage_metadata: message.usage_metadata,
    response_metadata: metadata,
    additional_kwargs: kwargs,
    name: message.name,
  });
}
