/** Full subagent result texts; workflow history carries only a bounded brief and the reference. */
export interface TaskResultStore {
  /** Stores the text of one execution and returns its reference. Idempotent per execution. */
  putResult(entry: { threadId: string; runId: string; taskId: string; attempt: number; text: string }): Promise<string>;
  getResult(ref: string): Promise<string | null>;
}

/** The reference of one execution's result; the thread is part of it, so a run id reused in another thread cannot share it. */
export function taskResultRef(threadId: string, runId: string, taskId: string, attempt: number): string {
  return `result:${threadId}:${runId}:${taskId}:${attempt}`;
}
