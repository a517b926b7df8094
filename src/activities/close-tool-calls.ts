import { AIMessage, mapStoredMessageToChatMessage, ToolMessage } from '@langchain/core/messages';
import { LEAD_TOOL_NAMES, leadCallId, type CloseToolCallsInput, type LeadCallRef } from '../contracts';
import { messageKeys, type NewRunEvent } from '../store';
import type { ActivityDeps } from './activity-deps';
import { toolEndEvent } from './lead-tool-events';
import { parseActivityInput } from './parse-activity-input';
import { putThreadMessage } from './thread-writes';

/** `additional_kwargs` flag of a tool message the run wrote because the call never got an outcome. */
export const CLOSED_BY_RUN_KWARG = 'closed_by_run';

/**
 * Builds the `closeToolCalls` activity: every call of the run that will never get its outcome gets a
 * closing tool message (`cancelled`, `not run: <reason>`) and, for a lead tool, its `tool.end`, so
 * the thread never holds a dangling tool call. Calls already answered are left alone (first writer
 * wins), and a model step the run never saw the end of has its stored calls closed too.
 */
export function createCloseToolCalls(deps: ActivityDeps) {
  return async function closeToolCalls(raw: CloseToolCallsInput): Promise<void> {
    const input = parseActivityInput('closeToolCalls', raw);
    const { threadId, runId } = input;
    const records = (await deps.stores.messages.listMessages(threadId)).filter((r) => r.runId === runId);
    const answered = new Set<string>();
    for (const record of records) {
      const message = mapStoredMessageToChatMessage(record.message);
      if (ToolMessage.isInstance(message)) answered.add(message.tool_call_id);
    }
    const calls: LeadCallRef[] = [...input.calls];
    if (input.unseenTurn !== null) calls.push(...storedCalls(records, runId, input.unseenTurn));
    const events: NewRunEvent[] = [];
    for (const call of calls) {
      if (answered.has(call.toolCallId)) continue;
      answered.add(call.toolCallId);
      const closing = new ToolMessage({
        content: input.text,
        tool_call_id: call.toolCallId,
        name: call.toolName,
        status: 'error',
        additional_kwargs: { [CLOSED_BY_RUN_KWARG]: true },
      });
      await putThreadMessage(deps, threadId, runId, messageKeys.tool(runId, call.callId), closing);
      if ((LEAD_TOOL_NAMES as readonly string[]).includes(call.toolName)) {
        events.push(toolEndEvent({ threadId, runId, callId: call.callId }, call.toolName, { status: input.text === 'cancelled' ? 'cancelled' : 'failed', error: input.text }));
      }
    }
    if (events.length > 0) await deps.stores.events.putBatch(events);
  };
}

/** The calls of a stored lead message, with the ids the run would have given them (by position). */
function storedCalls(records: ReadonlyArray<{ key: string; message: Parameters<typeof mapStoredMessageToChatMessage>[0] }>, runId: string, turn: number): LeadCallRef[] {
  const record = records.find((r) => r.key === messageKeys.ai(runId, turn));
  if (record === undefined) return [];
  const message = mapStoredMessageToChatMessage(record.message);
  if (!AIMessage.isInstance(message)) return [];
  return (message.tool_calls ?? []).flatMap((call, index) => (call.id ? [{ callId: leadCallId(turn, index), toolCallId: call.id, toolName: call.name }] : []));
}
