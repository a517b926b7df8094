import { SubagentProgressSchema, type SubagentProgress } from '../contracts/subagent-progress';

/** The task a progress row belongs to. */
export interface TaskProgressKey {
  readonly threadId: string;
  readonly runId: string;
  readonly taskId: string;
}

/** What a task's latest execution had spent and found when it last started a model or tool call. */
export interface StoredTaskProgress {
  readonly attempt: number;
  readonly progress: SubagentProgress;
}

/**
 * What each running lead task has spent so far: one row per task, written by its execution before
 * every model or tool call, so a task that ends without a result of its own (cancelled: the
 * workflow stops waiting at once) keeps what it spent up to the call it was stopped in.
 */
export interface TaskProgressStore {
  /** Keeps `progress` as the task's latest, unless the row already holds a later attempt's. */
  putProgress(key: TaskProgressKey, stored: StoredTaskProgress): Promise<void>;
  /** The task's latest progress, or null when none was stored (or the stored one no longer parses). */
  getProgress(key: TaskProgressKey): Promise<StoredTaskProgress | null>;
}

/** A stored progress row read back (its JSON parsed), checked: rows are data, and a malformed one counts as none. */
export function parseStoredProgress(attempt: number, stored: unknown): StoredTaskProgress | null {
  const parsed = SubagentProgressSchema.safeParse(stored);
  return parsed.success ? { attempt, progress: parsed.data } : null;
}
