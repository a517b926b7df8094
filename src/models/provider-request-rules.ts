/**
 * The message-list rules strict chat providers (OpenAI, Anthropic) enforce on one request, as a
 * pure check. The scripted model applies it so tests fail where a real provider would answer 400.
 */

/** Which rule a request breaks. */
export const ProviderRequestRule = {
  /** An assistant tool call without its tool message right after the assistant message. */
  UnansweredToolCall: 'unanswered_tool_call',
  /** A tool message that answers no call of the assistant message it follows. */
  OrphanToolMessage: 'orphan_tool_message',
  /** Two tool calls of the request share an id. */
  DuplicateToolCallId: 'duplicate_tool_call_id',
  /** A tool call or tool message with an empty id (providers pair calls and answers by id). */
  MissingToolCallId: 'missing_tool_call_id',
  /** More than one system message, or a system message that is not first. */
  SystemMessagePlacement: 'system_message_placement',
  /** No message at all, or none after the system message. */
  EmptyConversation: 'empty_conversation',
} as const;
/** Union of {@link ProviderRequestRule} values. */
export type ProviderRequestRule = (typeof ProviderRequestRule)[keyof typeof ProviderRequestRule];

/** The first rule a request breaks. */
export interface ProviderRequestViolation {
  readonly rule: ProviderRequestRule;
  /** Index of the offending message; null when the request as a whole is at fault. */
  readonly index: number | null;
  /** What a provider would say, e.g. `messages[3]: assistant tool call 'call_1' has no tool message after it`. */
  readonly detail: string;
}

/** A tool call as the check reads it; LangChain `ToolCall` fits. */
export interface RequestToolCall {
  readonly id?: string | undefined;
  readonly name: string;
}

/** A request message as the check reads it; LangChain messages fit (`type` is their role). */
export interface RequestMessage {
  readonly type: string;
  /** Set on assistant (`ai`) messages. */
  readonly tool_calls?: readonly RequestToolCall[] | undefined;
  /** Set on `tool` messages. */
  readonly tool_call_id?: string | undefined;
}

/**
 * Checks one request's message list against the provider rules and returns the first violation
 * (lowest message index), or null when a strict provider would accept it:
 * - every assistant tool call is answered by a tool message with its id, in the run of tool
 *   messages right after the assistant message;
 * - a tool message answers a call of the assistant message that run follows;
 * - tool-call ids are non-empty and unique across the whole request;
 * - at most one system message, and only as the first message;
 * - at least one message, and one after the system message.
 */
export function checkProviderRequest(messages: readonly RequestMessage[]): ProviderRequestViolation | null {
  if (messages.length === 0) return violation('EmptyConversation', null, 'the request has no messages');
  const callSites = new Map<string, number>();
  let firstSystem: number | null = null;
  // Call ids of the assistant message the current run of tool messages answers.
  let open: ReadonlySet<string> | null = null;
  for (const [index, message] of messages.entries()) {
    switch (message.type) {
      case 'system': {
        if (firstSystem !== null) return violation('SystemMessagePlacement', index, `more than one system message (the first is messages[${firstSystem}])`);
        if (index !== 0) return violation('SystemMessagePlacement', index, 'the system message must be the first message');
        firstSystem = index;
        open = null;
        break;
      }
      case 'ai': {
        const calls = message.tool_calls ?? [];
        const found = checkToolCalls(messages, index, calls, callSites);
        if (found !== null) return found;
        open = calls.length > 0 ? new Set(calls.map((c) => c.id ?? '')) : null;
        break;
      }
      case 'tool': {
        const id = message.tool_call_id ?? '';
        if (id === '') return violation('MissingToolCallId', index, 'tool message has an empty tool_call_id');
        // Any non-tool message after the assistant message closes its run of answers.
        if (open === null || !open.has(id)) return violation('OrphanToolMessage', index, `tool message without its call (tool_call_id '${id}')`);
        break;
      }
      default:
        open = null;
    }
  }
  if (messages.every((m) => m.type === 'system')) return violation('EmptyConversation', 0, 'the request has no message after the system message');
  return null;
}

/** Ids of one assistant message: non-empty, unseen in the request, and answered right after it. */
function checkToolCalls(
  messages: readonly RequestMessage[],
  index: number,
  calls: readonly RequestToolCall[],
  callSites: Map<string, number>,
): ProviderRequestViolation | null {
  for (const [position, call] of calls.entries()) {
    const id = call.id ?? '';
    if (id === '') return violation('MissingToolCallId', index, `assistant tool call #${position} ('${call.name}') has an empty id`);
    const earlier = callSites.get(id);
    if (earlier !== undefined) return violation('DuplicateToolCallId', index, `duplicate tool call id '${id}' (also used in messages[${earlier}])`);
    callSites.set(id, index);
  }
  const answered = new Set<string>();
  for (const next of messages.slice(index + 1)) {
    if (next.type !== 'tool') break;
    answered.add(next.tool_call_id ?? '');
  }
  const unanswered = calls.find((call) => !answered.has(call.id ?? ''));
  return unanswered === undefined
    ? null
    : violation('UnansweredToolCall', index, `assistant tool call '${unanswered.id ?? ''}' has no tool message after it`);
}

function violation(rule: keyof typeof ProviderRequestRule, index: number | null, problem: string): ProviderRequestViolation {
  return { rule: ProviderRequestRule[rule], index, detail: index === null ? problem : `messages[${index}]: ${problem}` };
}
