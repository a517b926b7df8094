import {
  LEAD_TOOL_EVENT_CATEGORY,
  type LeadToolEndPayload,
  type LeadToolEventName,
  type LeadToolStartPayload,
} from '../contracts';
import type { NewRunEvent } from '../store';
import { cappedEventText } from './record-task-end';

/** Where a lead tool call's rows go: its run in its thread, keyed by the id the run gave the call. */
export interface LeadToolEventTarget {
  readonly threadId: string;
  readonly runId: string;
  readonly callId: string;
}

function row(target: LeadToolEventTarget, event: LeadToolEventName, payload: LeadToolStartPayload | LeadToolEndPayload): NewRunEvent {
  return {
    dedupeKey: `${event}:${target.threadId}:${target.runId}:${target.callId}`,
    runId: target.runId,
    threadId: target.threadId,
    category: LEAD_TOOL_EVENT_CATEGORY,
    event,
    taskId: target.callId,
    payload,
  };
}

/** `tool.start` of one lead tool call, with its arguments serialized and bounded. */
export function toolStartEvent(target: LeadToolEventTarget, tool: string, args: unknown): NewRunEvent {
  const { text, truncated } = cappedEventText(JSON.stringify(args) ?? '{}');
  return row(target, 'tool.start', { call_id: target.callId, tool, args: text, ...(truncated ? { args_truncated: true as const } : {}) });
}

/** The single `tool.end` of one lead tool call (one per call: the key has no attempt). */
export function toolEndEvent(
  target: LeadToolEventTarget,
  tool: string,
  end: { readonly status: LeadToolEndPayload['status']; readonly output?: string | null; readonly error?: string | null },
): NewRunEvent {
  const payload: LeadToolEndPayload = { call_id: target.callId, tool, status: end.status };
  if (end.output) {
    const { text, truncated } = cappedEventText(end.output);
    payload.output = text;
    if (truncated) payload.output_truncated = true;
  }
  if (end.error) payload.error = cappedEventText(end.error).text;
  return row(target, 'tool.end', payload);
}
