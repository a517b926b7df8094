import { AIMessage, mapStoredMessageToChatMessage, type StoredMessage } from '@langchain/core/messages';
import { boundText, messageText, usageOfMessage, type LeadModelTurn, type TokenUsage, type ToolCall } from '../contracts';
import { sha256Hex } from './sha256-hex';

/** The stored lead message as an AIMessage. @throws Error when the stored message is not one. */
export function toAiMessage(stored: StoredMessage): AIMessage {
  const message = mapStoredMessageToChatMessage(stored);
  if (!AIMessage.isInstance(message)) throw new Error(`Stored lead message is a ${message.getType()} message, not an AI message`);
  return message;
}

const ARG_BRIEF_MAX_CHARS = 2000;

/** Bounds every argument value so workflow history holds briefs, never whole payloads. */
function briefToolCall(call: { id?: string; name: string; args: Record<string, unknown> }): ToolCall {
  let truncated = false;
  const args: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(call.args)) {
    const serialized = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
    if (serialized.length > ARG_BRIEF_MAX_CHARS) {
      truncated = true;
      args[name] = boundText(serialized, ARG_BRIEF_MAX_CHARS);
    } else {
      args[name] = value;
    }
  }
  return { id: call.id ?? '', name: call.name, args, argsTruncated: truncated };
}

/** The provider's reason and message when `ai` is the error fallback of a call that finally failed. */
function errorFallbackOf(ai: AIMessage): LeadModelTurn['errorFallback'] {
  const kwargs = ai.additional_kwargs;
  if (kwargs['error_fallback'] !== true) return null;
  return { reason: String(kwargs['error_reason'] ?? 'generic'), detail: String(kwargs['error_detail'] ?? messageText(ai.content)) };
}

/**
 * What the workflow learns about a stored lead message: its reference, briefs and tool calls.
 * `usage` is what the step's model calls spent (the response's own by default).
 */
export function toLeadTurn(key: string, ai: AIMessage, modelName: string, maxConcurrent?: number, usage: TokenUsage | null = usageOfMessage(ai)): LeadModelTurn {
  const text = messageText(ai.content);
  // OpenAI-style providers say `finish_reason`, Anthropic `stop_reason`, Ollama `done_reason`.
  const metadata = ai.response_metadata ?? {};
  const finish = metadata['finish_reason'] ?? metadata['stop_reason'] ?? metadata['done_reason'];
  return {
    errorFallback: errorFallbackOf(ai),
    messageRef: key,
    contentBrief: boundText(text),
    contentSha256: sha256Hex(text),
    toolCalls: (ai.tool_calls ?? []).map(briefToolCall),
    finishReason: typeof finish === 'string' ? finish : null,
    usage,
    modelName,
    ...(maxConcurrent === undefined ? {} : { maxConcurrent }),
  };
}
