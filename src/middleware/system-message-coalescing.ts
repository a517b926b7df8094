/**
 * System message coalescing (SPEC §6.4), the pure part. Strict providers accept at most one
 * system message and only as the first message; middleware (date context, durable context) adds
 * SystemMessages to the conversation, so every model request folds them into the single leading
 * system message.
 */

/** `additional_kwargs` flag of a per-run reminder of which only the newest one is kept. */
export const DYNAMIC_CONTEXT_REMINDER_KEY = 'dynamic_context_reminder';

/** A system message as the coalescer reads it; LangChain `SystemMessage` instances fit. */
export interface SystemPart {
  readonly content: unknown;
  readonly id?: string | undefined;
  readonly additional_kwargs?: Readonly<Record<string, unknown>>;
}

/** The single system message to send: a plain spec the middleware turns into a `SystemMessage`. */
export interface CoalescedSystemMessage {
  readonly content: string;
  /** The first part's id (absent when it had none). */
  readonly id: string | undefined;
  readonly additional_kwargs: Record<string, unknown>;
}

/** Text of message content: a string as is; a list joined by "\n" (strings, `text` fields, else JSON). */
export function flattenContent(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    const items: readonly unknown[] = content;
    return items
      .map((item) => {
        if (typeof item === 'string') return item;
        if (typeof item === 'object' && item !== null && 'text' in item) return String((item as { text: unknown }).text);
        return typeof item === 'object' && item !== null ? JSON.stringify(item) : String(item);
      })
      .join('\n');
  }
  return content === undefined || content === null ? '' : String(content);
}

/** True when the part is a dynamic-context reminder (its flag is truthy). */
export function isDynamicContextReminder(part: SystemPart): boolean {
  return Boolean(part.additional_kwargs?.[DYNAMIC_CONTEXT_REMINDER_KEY]);
}

/**
 * Merges system parts, in order, into one: only the LAST dynamic-context reminder survives; the
 * contents are flattened and joined by "\n\n"; the id is the first remaining part's; the kwargs
 * are merged with later parts winning. Returns null for no parts.
 */
export function coalesceSystemParts(parts: readonly SystemPart[]): CoalescedSystemMessage | null {
  const lastReminder = parts.reduce((found, part, i) => (isDynamicContextReminder(part) ? i : found), -1);
  const kept = parts.filter((part, i) => !isDynamicContextReminder(part) || i === lastReminder);
  const first = kept[0];
  if (first === undefined) return null;
  return {
    content: kept.map((part) => flattenContent(part.content)).join('\n\n'),
    id: first.id,
    additional_kwargs: Object.assign({}, ...kept.map((part) => part.additional_kwargs ?? {})) as Record<string, unknown>,
  };
}

/** A conversation message as the planner reads it; LangChain messages fit. */
export interface CoalescibleMessage extends SystemPart {
  /** LangChain's message type; `system` marks a SystemMessage. */
  readonly type: string;
}

/** What the model request becomes once coalesced. */
export interface SystemCoalescingPlan<M> {
  readonly systemMessage: CoalescedSystemMessage;
  /** The non-system messages, in their original order. */
  readonly messages: M[];
}

/**
 * Plans the coalesced request, or returns null when `messages` holds no SystemMessage: the
 * request then goes out unchanged, which keeps the provider's prompt-prefix cache warm. The
 * request's own system message takes part only when it has text (LangChain gives an agent without
 * a system prompt an empty one).
 */
export function planSystemCoalescing<M extends CoalescibleMessage>(
  systemMessage: SystemPart | null | undefined,
  messages: readonly M[],
): SystemCoalescingPlan<M> | null {
  const inMessages = messages.filter((m) => m.type === 'system');
  if (inMessages.length === 0) return null;
  const hasBase = systemMessage !== null && systemMessage !== undefined && flattenContent(systemMessage.content) !== '';
  const merged = coalesceSystemParts(hasBase ? [systemMessage, ...inMessages] : inMessages);
  if (merged === null) return null;
  return { systemMessage: merged, messages: messages.filter((m) => m.type !== 'system') };
}
