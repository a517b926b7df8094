import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import { sha256Hex } from './sha256-hex';

/** Tool-call ids already used in a thread's messages (assistant calls and tool answers). */
export function usedToolCallIds(messages: readonly BaseMessage[]): Set<string> {
  const used = new Set<string>();
  for (const message of messages) {
    if (AIMessage.isInstance(message)) for (const call of message.tool_calls ?? []) if (call.id) used.add(call.id);
  }
  return used;
}

/**
 * The lead's response with tool-call ids a provider will accept back: an id that is empty, repeated
 * in the response or already used in the thread is replaced by one derived from the run, turn and
 * position (`call_<run hash>_<turn>_<index>`, letters, digits and `_` only, as Anthropic requires).
 * Provider ids are never keys of ours; this only keeps each call paired with its own tool message.
 * The provider's raw tool-call metadata is synced when it lines up with the calls, else dropped.
 */
export function withUniqueToolCallIds(response: AIMessage, used: ReadonlySet<string>, runId: string, turn: number): AIMessage {
  const calls = response.tool_calls ?? [];
  const taken = new Set(used);
  const runTag = sha256Hex(runId).slice(0, 8);
  let changed = false;
  const ids = calls.map((call, index) => {
    if (call.id && !taken.has(call.id)) {
      taken.add(call.id);
      return call.id;
    }
    changed = true;
    let id = `call_${runTag}_${turn}_${index}`;
    for (let n = 2; taken.has(id); n++) id = `call_${runTag}_${turn}_${index}_${n}`;
    taken.add(id);
    return id;
  });
  if (!changed) return response;
  const kwargs: Record<string, unknown> = { ...response.additional_kwargs };
  const raw = kwargs.tool_calls;
  if (Array.isArray(raw) && raw.length === calls.length) {
    kwargs.tool_calls = raw.map((entry: unknown, index) => (typeof entry === 'object' && entry !== null ? { ...entry, id: ids[index] } : entry));
  } else {
    delete kwargs.tool_calls;
  }
  return new AIMessage({
    content: response.content,
    id: response.id,
    name: response.name,
    tool_calls: calls.map((call, index) => ({ ...call, id: ids[index] })),
    invalid_tool_calls: response.invalid_tool_calls,
    usage_metadata: response.usage_metadata,
    response_metadata: response.response_metadata,
    additional_kwargs: kwargs,
  });
}
