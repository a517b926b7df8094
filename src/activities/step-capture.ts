import { AIMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { addUsage, messageText, SUBAGENT_STEP_MAX_CHARS, usageOfMessage, type SubagentStepPayload, type TokenUsage } from '../contracts';

/** Cursor over a subagent's growing message list (SPEC §4.1). */
export interface StepCursor {
  processed: number;
  readonly seenIds: Set<string>;
  readonly seenAnonymous: string[];
}

export function newStepCursor(): StepCursor {
  return { processed: 0, seenIds: new Set(), seenAnonymous: [] };
}

function isStep(message: BaseMessage): message is AIMessage | ToolMessage {
  return AIMessage.isInstance(message) || ToolMessage.isInstance(message);
}

function remember(message: AIMessage | ToolMessage, cursor: StepCursor): boolean {
  if (message.id) {
    if (cursor.seenIds.has(message.id)) return false;
    cursor.seenIds.add(message.id);
    return true;
  }
  const fingerprint = JSON.stringify(message.toDict());
  if (cursor.seenAnonymous.includes(fingerprint)) return false;
  cursor.seenAnonymous.push(fingerprint);
  return true;
}

/**
 * Returns the assistant turns and tool outputs appended since the last call (every message of
 * the new tail, so a multi-tool turn keeps all its outputs). A shrinking list (history rewritten
 * by compaction) resets the cursor to the new tail; unchanged re-yields are no-ops.
 */
export function captureNewStepMessages(messages: readonly BaseMessage[], cursor: StepCursor): Array<AIMessage | ToolMessage> {
  const total = messages.length;
  if (total < cursor.processed) cursor.processed = total;
  const fresh = total > cursor.processed ? messages.slice(cursor.processed, total) : messages.slice(-1);
  cursor.processed = Math.max(cursor.processed, total);
  return fresh.filter(isStep).filter((m) => remember(m, cursor));
}

function truncate(text: string, max: number): { text: string; truncated: boolean } {
  return text.length > max ? { text: text.slice(0, max), truncated: true } : { text, truncated: false };
}

/** The payload of one `subagent.step` row, with text and serialized args capped (SPEC §4.2). */
export function buildSubagentStep(
  message: AIMessage | ToolMessage,
  taskId: string,
  messageIndex: number,
  maxChars: number = SUBAGENT_STEP_MAX_CHARS,
): SubagentStepPayload {
  const { text, truncated } = truncate(messageText(message.content), maxChars);
  if (ToolMessage.isInstance(message)) {
    return { task_id: taskId, message_index: messageIndex, kind: 'tool', text, truncated, tool_name: message.name ?? null };
  }
  const toolCalls = (message.tool_calls ?? []).map((call) => {
    const serialized = typeof call.args === 'string' ? call.args : JSON.stringify(call.args);
    return serialized.length > maxChars
      ? { name: call.name, args: serialized.slice(0, maxChars), args_truncated: true as const }
      : { name: call.name, args: call.args as unknown };
  });
  return { task_id: taskId, message_index: messageIndex, kind: 'ai', text, truncated, tool_calls: toolCalls };
}

/** A step of a conversation an attempt took over, with the task's usage after it. */
export interface TakenOverStep {
  readonly step: SubagentStepPayload;
  readonly usage: TokenUsage | null;
}

/** The steps of a taken-over conversation, numbered from 1 as the attempts that ran them numbered them. */
export function takenOverSteps(messages: readonly BaseMessage[], taskId: string): TakenOverStep[] {
  let usage: TokenUsage | null = null;
  return messages.filter(isStep).map((message, i) => {
    if (AIMessage.isInstance(message)) usage = addUsage(usage, usageOfMessage(message));
    return { step: buildSubagentStep(message, taskId, i + 1), usage };
  });
}
