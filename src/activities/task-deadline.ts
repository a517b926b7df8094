/**
 * Why a subagent execution was stopped by its own deadline: the task's timeout (plus any extension
 * the run granted) passed since the execution started.
 */
export class TaskDeadlineExceeded extends Error {
  override readonly name = 'TaskDeadlineExceeded';
  constructor(readonly timeoutSeconds: number) {
    super(`Execution timed out after ${timeoutSeconds} seconds`);
  }
}

/** A running deadline: its signal aborts with {@link TaskDeadlineExceeded}; `stop()` disarms it. */
export interface TaskDeadline {
  readonly signal: AbortSignal;
  stop(): void;
}

/**
 * Arms an extendable execution deadline. When `timeoutSeconds` have passed since it was armed, it
 * asks `currentTimeout()` (the run's view: the timeout plus extensions granted meanwhile); with time
 * left it re-arms for the rest, otherwise it aborts. If the run cannot be asked, the deadline it
 * knew holds. One question per expiry, not per heartbeat.
 */
export function armTaskDeadline(timeoutSeconds: number, currentTimeout: () => Promise<number>, now: () => number = Date.now): TaskDeadline {
  const controller = new AbortController();
  const startedAt = now();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const arm = (seconds: number): void => {
    const remainingMs = startedAt + seconds * 1000 - now();
    timer = setTimeout(() => void expire(seconds), Math.max(0, remainingMs));
  };
  const expire = async (known: number): Promise<void> => {
    const latest = await currentTimeout().catch(() => known);
    if (stopped) return;
    if (startedAt + latest * 1000 > now()) arm(latest);
    else controller.abort(new TaskDeadlineExceeded(Math.max(known, latest)));
  };
  arm(timeoutSeconds);
  return {
    signal: controller.signal,
    stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
    },
  };
}
