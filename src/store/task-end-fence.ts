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

/**
 * The rows of a batch a store writes, before it looks at stored end rows: a task's rows that follow
 * its end row in the same batch are dropped, as if the batch were written one row at a time.
 */
export function withoutRowsAfterTaskEnd(events: readonly NewRunEvent[]): NewRunEvent[] {
  const ended = new Set<string>();
  return events.filter((e) => {
    const key = taskKeyOf(e);
    if (key === null) return true;
    if (e.event === TASK_END_EVENT) ended.add(key);
    return e.event === TASK_END_EVENT || !ended.has(key);
  });
}
