import { SPAN_ATTRIBUTES } from './span-attributes';

/** Which thread, run, task, lead tool call or batch a piece of work belongs to, as log fields. */
export interface DeerflowIds {
  readonly thread_id?: string;
  readonly run_id?: string;
  readonly task_id?: string;
  readonly call_id?: string;
  readonly batch_id?: string;
}

const INPUT_FIELDS = [
  ['threadId', 'thread_id'],
  ['runId', 'run_id'],
  ['taskId', 'task_id'],
  ['callId', 'call_id'],
  ['batchId', 'batch_id'],
] as const;

const SPAN_KEYS: Record<keyof DeerflowIds, string> = {
  thread_id: SPAN_ATTRIBUTES.threadId,
  run_id: SPAN_ATTRIBUTES.runId,
  task_id: SPAN_ATTRIBUTES.taskId,
  call_id: SPAN_ATTRIBUTES.callId,
  batch_id: SPAN_ATTRIBUTES.batchId,
};

/**
 * The ids an activity input carries (`threadId`, `runId`, `taskId`, `callId`, `batchId`; a batch
 * item's `key` as its task id, and the `batchItem.batchId` of an untagged item input). Every
 * activity takes one object; anything else has no ids.
 */
export function deerflowIdsOf(input: unknown): DeerflowIds {
  if (typeof input !== 'object' || input === null) return {};
  const record = input as Record<string, unknown>;
  const ids: Record<string, string> = {};
  for (const [field, key] of INPUT_FIELDS) {
    const value = record[field];
    if (typeof value === 'string') ids[key] = value;
  }
  // A batch item's events file its key as their task id.
  if (ids['task_id'] === undefined && record['kind'] === 'batchItem' && typeof record['key'] === 'string') ids['task_id'] = record['key'];
  const item = record['batchItem'];
  if (ids['batch_id'] === undefined && typeof item === 'object' && item !== null) {
    const batchId = (item as Record<string, unknown>)['batchId'];
    if (typeof batchId === 'string') ids['batch_id'] = batchId;
  }
  return ids;
}

/** The same ids as `deerflow.*` span attributes. */
export function idSpanAttributes(ids: DeerflowIds): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const [key, value] of Object.entries(ids) as Array<[keyof DeerflowIds, string | undefined]>) {
    if (value !== undefined) attributes[SPAN_KEYS[key]] = value;
  }
  return attributes;
}
