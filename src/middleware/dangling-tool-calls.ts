/**
 * Repair of dangling tool calls, the pure part. A thread written by older code can hold an
 * assistant tool call that was never answered (the run ended first), answers written late (after
 * a human message) or answers to no call; strict providers reject such a history with a 400, so it
 * is rewritten into the shape they accept before it is sent again.
 */

/** `additional_kwargs` flag of a tool message the repair made up for an unanswered call. */
export const DANGLING_REPAIR_KEY = 'dangling_repair';

/** Content of a made-up answer: the call never ran. */
export const DANGLING_TOOL_CALL_TEXT = 'not run: the run ended before this call was answered';

/** A tool call as the repair reads it; LangChain `ToolCall` fits. */
export interface DanglingRepairToolCall {
  readonly id?: string | undefined;
  readonly name: string;
}

/** A thread message as the repair reads it; LangChain messages fit (`type` is their role). */
export interface DanglingRepairMessage {
  readonly type: string;
  /** Set on assistant (`ai`) messages. */
  readonly tool_calls?: readonly DanglingRepairToolCall[] | undefined;
  /** Set on `tool` messages. */
  readonly tool_call_id?: string | undefined;
}

/**
 * Fields of the made-up answer of one unanswered call; they are LangChain `ToolMessage` fields,
 * so `(fields) => new ToolMessage(fields)` builds it.
 */
export interface DanglingToolMessageFields {
  readonly content: string;
  readonly tool_call_id: string;
  /** The called tool's name. */
  readonly name: string;
  readonly status: 'error';
  /** `{ dangling_repair: true }`: marks it as made up, never produced by the tool. */
  readonly additional_kwargs: Record<string, unknown>;
}

/**
 * Rewrites a thread so every assistant tool call is answered right after its assistant message.
 * For each assistant message with tool calls it emits the message, then exactly one tool message
 * per call in call order: the first unused tool message answering that call before the next
 * assistant message, else `toToolMessage` of a made-up error answer ({@link DANGLING_TOOL_CALL_TEXT},
 * flagged {@link DANGLING_REPAIR_KEY}); then the block's other non-tool messages in their order.
 * Tool messages that answer no call of the preceding assistant message are dropped. A well-formed
 * thread comes back as the same instances in the same order (a new array; the input is not
 * mutated). Ids are kept as they are: duplicate or empty call ids are not repaired.
 *
 * Pure and bundle-safe, so it takes the message constructor as a parameter; with LangChain:
 * `repairDanglingToolCalls(messages, (fields) => new ToolMessage(fields))`.
 */
export function repairDanglingToolCalls<M extends DanglingRepairMessage>(
  messages: readonly M[],
  toToolMessage: (fields: DanglingToolMessageFields) => M,
): M[] {
  const repaired: M[] = [];
  let index = 0;
  while (index < messages.length) {
    const message = messages[index];
    index += 1;
    // A tool message reached here follows no assistant tool call: an orphan.
    if (message === undefined || message.type === 'tool') continue;
    repaired.push(message);
    const calls = message.type === 'ai' ? (message.tool_calls ?? []) : [];
    if (calls.length === 0) continue;
    const end = nextAssistantIndex(messages, index);
    const block = messages.slice(index, end);
    const answers = block.filter((m) => m.type === 'tool');
    const used = new Set<M>();
    for (const call of calls) {
      const id = call.id ?? '';
      const answer = answers.find((m) => !used.has(m) && (m.tool_call_id ?? '') === id);
      if (answer === undefined) {
        repaired.push(toToolMessage(danglingAnswer(id, call.name)));
      } else {
        used.add(answer);
        repaired.push(answer);
      }
    }
    repaired.push(...block.filter((m) => m.type !== 'tool'));
    index = end;
  }
  return repaired;
}

/** Index of the first assistant message at or after `from`, or the length when there is none. */
function nextAssistantIndex(messages: readonly DanglingRepairMessage[], from: number): number {
  const found = messages.findIndex((m, i) => i >= from && m.type === 'ai');
  return found === -1 ? messages.length : found;
}

function danglingAnswer(toolCallId: string, toolName: string): DanglingToolMessageFields {
  return {
    content: DANGLING_TOOL_CALL_TEXT,
    tool_call_id: toolCallId,
    name: toolName,
    status: 'error',
    additional_kwargs: { [DANGLING_REPAIR_KEY]: true },
  };
}
