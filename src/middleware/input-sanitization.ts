/**
 * Untrusted text framing (SPEC §6.9): the pure part of the input sanitization middleware. Blocked
 * framework and injection tags are HTML-escaped rather than removed, so the user's intent survives
 * while the tag loses its structural meaning; forged boundary markers are neutralized; the genuine
 * user message is wrapped in plain-text boundary markers. Tool results and subagent reports get
 * the same escaping and neutralization, without the wrapping (`tool-result-sanitization.ts`).
 */

/** Opening boundary line around the genuine user message (a fixed wire string). */
export const USER_INPUT_BEGIN = '--- BEGIN USER INPUT ---';
/** Closing boundary line around the genuine user message (a fixed wire string). */
export const USER_INPUT_END = '--- END USER INPUT ---';
/** What a forged {@link USER_INPUT_BEGIN} inside untrusted text becomes. */
export const NEUTRALIZED_USER_INPUT_BEGIN = '[BEGIN USER INPUT]';
/** What a forged {@link USER_INPUT_END} inside untrusted text becomes. */
export const NEUTRALIZED_USER_INPUT_END = '[END USER INPUT]';
/** `additional_kwargs` key holding the user's text as it was before sanitization. */
export const ORIGINAL_USER_CONTENT_KEY = 'original_user_content';

/**
 * Tag names escaped wherever they appear in untrusted text (matched case-insensitively): every
 * framework block the system emits into model input, then common injection tags. Adding a
 * framework block tag means adding it here too (a test pins the count).
 */
export const UNTRUSTED_TAG_DENYLIST = [
  'system-reminder',
  'system_reminder',
  'memory',
  'current_date',
  'think',
  'analysis',
  'role',
  'soul',
  'self_update',
  'thinking_style',
  'clarification_system',
  'critical_reminders',
  'response_style',
  'citations',
  'uploaded_files',
  'current_uploads',
  'subagent_system',
  'skill_system',
  'skill_index',
  'available_skills',
  'disabled_skills',
  'memory_tool_system',
  'todo_list_system',
  'durable_context_data',
  'slash_skill_activation',
  'mcp_routing_hints',
  'available-deferred-tools',
  'goal_continuation',
  'background_task_event',
  'file_editing_workflow',
  'guidelines',
  'output_format',
  'working_directory',
  'tool_restrictions',
  'report_contract',
  'acceptance_criteria',
  'direct_work',
  'system',
  'instruction',
  'important',
  'override',
  'ignore',
  'prompt',
] as const;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// `<tag`, `</tag`, `< / tag attrs>`, `<tag/>`, and a bare `<tag` with no `>`. The word boundary
// keeps `<systemd>` and `<prompts>` untouched while `<system-x>` (a hyphen) still matches.
const BLOCKED_TAG_PATTERN = new RegExp(
  `<\\s*/?\\s*(?:${[...UNTRUSTED_TAG_DENYLIST].sort().map(escapeRegExp).join('|')})\\b[^>]*>?`,
  'gi',
);
// A forged marker need not be byte-exact to read as one: any case, three or more dashes, and any
// run of spaces or tabs (Unicode ones too) around and between the words. Line breaks do not
// count, so a marker never swallows the lines around it.
const HSPACE = '[^\\S\\r\\n]';
const BOUNDARY_TOKEN_PATTERN = new RegExp(`-{3,}${HSPACE}*(begin|end)${HSPACE}+user${HSPACE}+input${HSPACE}*-{3,}`, 'gi');

/** HTML-escapes every denylisted tag, matched case-insensitively with optional spaces. */
function escapeBlockedTags(text: string): string {
  return text.replace(BLOCKED_TAG_PATTERN, (tag) => tag.replace(/</g, '&lt;').replace(/>/g, '&gt;'));
}

/**
 * Replaces every forged user-input marker, however it is cased or spaced, by its neutralized form.
 * Shared by the user-input framing and the tool-result path so both match markers the same way.
 */
function neutralizeBoundaryTokens(text: string): string {
  return text.replace(BOUNDARY_TOKEN_PATTERN, (_token, word: string) =>
    word.toLowerCase() === 'begin' ? NEUTRALIZED_USER_INPUT_BEGIN : NEUTRALIZED_USER_INPUT_END,
  );
}

/**
 * Escapes denylisted tags and neutralizes forged boundary markers, without wrapping: for untrusted
 * text that enters the model as data (tool results, acceptance criteria). Blank text is returned
 * unchanged. Idempotent.
 */
export function neutralizeUntrustedTags(text: string): string {
  if (text.trim() === '') return text;
  return neutralizeBoundaryTokens(escapeBlockedTags(text));
}

/**
 * Neutralizes one tool result or subagent report before it reaches a model (tool results are
 * data): denylisted framework tags are HTML-escaped (`</system>` becomes
 * `&lt;/system&gt;`, also `< SYSTEM >`) and forged user-input markers, in any case or spacing,
 * become `[BEGIN USER INPUT]` / `[END USER INPUT]`. Nothing is wrapped. Blank text is returned
 * unchanged; idempotent, so text neutralized once passes through again as it is.
 */
export function neutralizeToolResultText(text: string): string {
  return neutralizeUntrustedTags(text);
}

/**
 * Sanitizes the genuine user message and wraps it as
 * `--- BEGIN USER INPUT ---\n<text>\n--- END USER INPUT ---`. Blank text is returned unchanged.
 * Text that is already exactly wrapped keeps its wrapping (idempotent) but still has forged
 * markers inside it neutralized, so a user cannot forge the outer frame to smuggle inner ones.
 */
export function frameUntrustedText(text: string): string {
  if (text.trim() === '') return text;
  const escaped = escapeBlockedTags(text);
  if (escaped.startsWith(USER_INPUT_BEGIN) && escaped.endsWith(USER_INPUT_END) && escaped.length >= USER_INPUT_BEGIN.length + USER_INPUT_END.length) {
    const inner = escaped.slice(USER_INPUT_BEGIN.length, escaped.length - USER_INPUT_END.length);
    return `${USER_INPUT_BEGIN}${neutralizeBoundaryTokens(inner)}${USER_INPUT_END}`;
  }
  return `${USER_INPUT_BEGIN}\n${neutralizeBoundaryTokens(escaped)}\n${USER_INPUT_END}`;
}

/** A message as the sanitizer reads it; LangChain message instances fit this shape. */
export interface SanitizableMessage {
  /** LangChain's message type: `human`, `ai`, `system`, `tool`, ... */
  readonly type: string;
  readonly name?: string | undefined;
  readonly content: unknown;
  readonly additional_kwargs?: Readonly<Record<string, unknown>>;
}

/**
 * True for a message the user wrote: a HumanMessage not named `summary` (a compaction summary)
 * and not `hide_from_ui` (framework-injected data or warnings).
 */
export function isGenuineUserMessage(message: SanitizableMessage): boolean {
  if (message.type !== 'human') return false;
  if (message.name === 'summary') return false;
  return message.additional_kwargs?.['hide_from_ui'] !== true;
}

/** Index of the last genuine user message, or -1. */
export function lastGenuineUserMessageIndex(messages: readonly SanitizableMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i];
    if (message !== undefined && isGenuineUserMessage(message)) return i;
  }
  return -1;
}

/** New content and kwargs for a sanitized user message. */
export interface SanitizedUserContent {
  readonly content: string | unknown[];
  readonly additional_kwargs: Record<string, unknown>;
}

function isTextBlock(block: unknown): block is { type: 'text'; text: string } {
  if (typeof block !== 'object' || block === null) return false;
  const rec = block as Record<string, unknown>;
  return rec['type'] === 'text' && typeof rec['text'] === 'string';
}

function blockText(block: unknown): string | null {
  if (typeof block === 'string') return block === '' ? null : block;
  if (isTextBlock(block)) return block.text === '' ? null : block.text;
  return null;
}

/**
 * Frames only the user's own text when a server block was prepended to it
 * (`original_user_content` names the user's part); otherwise frames the whole text.
 */
function frameUserText(text: string, original: unknown): string {
  if (typeof original !== 'string') return frameUntrustedText(text);
  if (original === '') return text;
  const framed = frameUntrustedText(original);
  if (framed === original) return text;
  const at = text.lastIndexOf(original);
  return at >= 0 ? text.slice(0, at) + framed : frameUntrustedText(text);
}

/**
 * Sanitized content for a genuine user message, or null when nothing changes (blank text, no
 * text blocks, already framed). List content: the text blocks (and bare strings) are merged into
 * one text block at the first one's place; non-text blocks stay, in order. The text before
 * sanitization is kept under {@link ORIGINAL_USER_CONTENT_KEY} unless a string is already there.
 */
export function sanitizeUserContent(message: Pick<SanitizableMessage, 'content' | 'additional_kwargs'>): SanitizedUserContent | null {
  const { content } = message;
  const kwargs = { ...(message.additional_kwargs ?? {}) };
  const original = kwargs[ORIGINAL_USER_CONTENT_KEY];
  if (typeof content === 'string') {
    const framed = frameUserText(content, original);
    if (framed === content) return null;
    if (typeof original !== 'string') kwargs[ORIGINAL_USER_CONTENT_KEY] = content;
    return { content: framed, additional_kwargs: kwargs };
  }
  if (!Array.isArray(content)) return null;
  const blocks: readonly unknown[] = content;
  const textIndexes = blocks.flatMap((block, i) => (blockText(block) === null ? [] : [i]));
  const first = textIndexes[0];
  const last = textIndexes[textIndexes.length - 1];
  if (first === undefined || last === undefined) return null;
  const text = textIndexes.map((i) => blockText(blocks[i])).join('\n');
  const framed = frameUserText(text, original);
  if (framed === text) return null;
  const isText = new Set(textIndexes);
  const between = blocks.slice(first + 1, last + 1).filter((_, offset) => !isText.has(first + 1 + offset));
  const rebuilt = [...blocks.slice(0, first), { type: 'text', text: framed }, ...between, ...blocks.slice(last + 1)];
  if (typeof original !== 'string') kwargs[ORIGINAL_USER_CONTENT_KEY] = text;
  return { content: rebuilt, additional_kwargs: kwargs };
}
