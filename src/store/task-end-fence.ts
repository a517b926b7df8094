import { TASK_END_EVENT } from '../contracts';
import type { NewRunEvent } from './run-event-store';

/** The task a row belongs to (thread, run and task id), or null for a row of no task. */
export function taskKeyOf(event: Pick<NewRunEvent, 'threadId' | 'runId' | 'taskId'>): string | null {
  return event.taskId === null ? null : JSON.stringify([event.threadId, event.runId, event.taskId]);
}

/** Whether the store must drop `event` once its task's end row is stored: every task row but the end itself. */
export function isFencedByTaskEnd(event: NewRunEvent): boolean {
  return event.taskId !== null && event.event !== TASK_END_EVENT;
}

/** Whether two rows belong to the same task (same thread, run and task id). */
export function isSameTask(a: Pick<NewRunEvent, 'threadId' | 'runId' | 'taskId'>, b: Pick<NewRunEvent, 'threadId' | 'runId' | 'taskId'>): boolean {
  return a.taskId === b.taskId && a.runId === b.runId && a.threadId === b.threadId;
}

/**
 * The rows of a batch a store writes, before it looks at stored end rows: a task's rows that follow
 * its end row in the same batch are dropped, as if the batch were written one row at a time.
 */
export function withoutRowsAfterTaskEnd(events: readonly NewRunEvent[]): readonly NewRunEvent[] {
  // Only rows that share a task id with an end row of the batch can follow their end: only they
  // need a key (most batches hold no end row at all).
  const endTaskIds = new Set<string>();
  for (const e of events) if (e.event === TASK_END_EVENT && e.taskId !== null) endTaskIds.add(e.taskId);
  if (endTaskIds.size === 0) return events;
  const ended = new Set<string>();
  return events.filter((e) => {
    if (e.taskId === null || !endTaskIds.has(e.taskId)) return true;
    const key = taskKeyOf(e);
    if (key === null) return true;
    if (e.event === TASK_END_EVENT) ended.add(key);
    return e.event === TASK_END_EVENT || !ended.has(key);
  });
}
