/**
 * Tool results are data: the pure part of neutralizing every tool message of one
 * model request. The text of tool results and subagent reports is treated like user input
 * ({@link neutralizeToolResultText}) so a web page, a file or a report cannot pose as a framework
 * block or close the user-input frame. Request-only: callers rewrite what they send, never what
 * they store.
 */
import { neutralizeToolResultText } from './input-sanitization';

/** A request message as the tool-result neutralizer reads it; LangChain messages fit this shape. */
export interface ToolResultMessage {
  /** LangChain's message type; only `tool` messages are rewritten. */
  readonly type: string;
  /** A string, or content blocks (`{ type: 'text', text }` blocks and bare strings are text). */
  readonly content: unknown;
  readonly id?: string | undefined;
  readonly name?: string | undefined;
  readonly tool_call_id?: string | undefined;
  readonly status?: string | undefined;
  readonly artifact?: unknown;
  readonly metadata?: Readonly<Record<string, unknown>> | undefined;
  readonly additional_kwargs?: Readonly<Record<string, unknown>> | undefined;
  readonly response_metadata?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * Fields of a rewritten tool message: the original's fields with the neutralized content. They are
 * LangChain `ToolMessage` fields, so `(fields) => new ToolMessage(fields)` builds it. Absent fields
 * of the original are left out.
 */
export interface NeutralizedToolMessageFields<C = unknown> {
  readonly content: C;
  /** The original's call id (`''` only for a malformed tool message that had none). */
  readonly tool_call_id: string;
  readonly id?: string;
  readonly name?: string;
  readonly status?: 'success' | 'error';
  readonly artifact?: unknown;
  readonly metadata?: Record<string, unknown>;
  readonly additional_kwargs?: Record<string, unknown>;
  readonly response_metadata?: Record<string, unknown>;
}

function isTextBlock(block: unknown): block is { readonly type: 'text'; readonly text: string } {
  if (typeof block !== 'object' || block === null) return false;
  const rec = block as Record<string, unknown>;
  return rec['type'] === 'text' && typeof rec['text'] === 'string';
}

function neutralizeBlock(block: unknown): unknown {
  if (typeof block === 'string') return neutralizeToolResultText(block);
  if (!isTextBlock(block)) return block;
  const text = neutralizeToolResultText(block.text);
  return text === block.text ? block : { ...block, text };
}

/**
 * Tool-message content with its text neutralized ({@link neutralizeToolResultText}): a string, or
 * an array whose text blocks (and bare strings) are rewritten and whose other blocks (images,
 * files) stay as they are. Returns the SAME value when nothing changes; changed arrays and blocks
 * are copies, so the input is never mutated. The shape is kept, hence the unchanged type.
 */
export function neutralizeToolResultContent<C>(content: C): C {
  if (typeof content === 'string') return neutralizeToolResultText(content) as C;
  if (!Array.isArray(content)) return content;
  const blocks: readonly unknown[] = content;
  const rewritten = blocks.map(neutralizeBlock);
  return rewritten.every((block, i) => block === blocks[i]) ? content : (rewritten as C);
}

/** The rewritten message's fields: every field the original has, with the new content. */
function toolMessageFields<C>(message: ToolResultMessage, content: C): NeutralizedToolMessageFields<C> {
  const { id, name, status, artifact, metadata, additional_kwargs, response_metadata } = message;
  return {
    content,
    tool_call_id: message.tool_call_id ?? '',
    ...(id === undefined ? {} : { id }),
    ...(name === undefined ? {} : { name }),
    ...(status === 'success' || status === 'error' ? { status } : {}),
    ...(artifact === undefined ? {} : { artifact }),
    ...(metadata === undefined ? {} : { metadata: { ...metadata } }),
    ...(additional_kwargs === undefined ? {} : { additional_kwargs: { ...additional_kwargs } }),
    ...(response_metadata === undefined ? {} : { response_metadata: { ...response_metadata } }),
  };
}

/**
 * The messages of one model request with the content of every tool message neutralized like user
 * input ({@link neutralizeToolResultContent}). Only tool messages whose content changes are
 * rebuilt, through `toToolMessage`; every other message (clean tool results included) comes back
 * as the same instance in the same place. Returns a new array; the input is never mutated. Meant
 * for the request only: the stored transcript keeps what the tool returned.
 *
 * Pure and bundle-safe, so it takes the message constructor as a parameter; with LangChain:
 * `neutralizeToolMessages(messages, (fields) => new ToolMessage(fields))`.
 */
export function neutralizeToolMessages<M extends ToolResultMessage>(
  messages: readonly M[],
  toToolMessage: (fields: NeutralizedToolMessageFields<M['content']>) => M,
): M[] {
  return messages.map((message) => {
    if (message.type !== 'tool') return message;
    const content = neutralizeToolResultContent(message.content);
    return content === message.content ? message : toToolMessage(toolMessageFields(message, content));
  });
}
