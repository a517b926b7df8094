/** Full subagent result texts; workflow history carries only a bounded brief and the reference. */
export interface TaskResultStore {
  /** Stores the text of one execution and returns its reference. Idempotent per execution. */
  putResult(entry: { runId: string; taskId: string; attempt: number; text: string }): Promise<string>;
  getResult(ref: string): Promise<string | null>;
}

export function taskResultRef(runId: string, taskId: string, attempt: number): string {
  return `result:${runId}:${taskId}:${attempt}`;
}
