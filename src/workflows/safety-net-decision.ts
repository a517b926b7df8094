/** A task in flight as the run's safety net sees it. */
export interface WatchedTask {
  readonly taskId: string;
  /** Workflow time (ms) the task was dispatched at. */
  readonly dispatchedAtMs: number;
  /** Its timeout right now: its own plus what `extendTask` added. */
  readonly timeoutSeconds: number;
  /** Already given up on, or cancelled (by `cancelTask` or with the run): the net leaves it alone. */
  readonly settled: boolean;
}

export interface SafetyNetDecision {
  /** Tasks whose timeout plus grace since dispatch has passed: give up on them now. */
  readonly overdue: readonly string[];
  /** How long until the next watched task is due, or null when none is left to watch. */
  readonly wakeInMs: number | null;
}

/**
 * The run's safety net at `nowMs` (pure): a task not done within its timeout plus the grace period
 * after dispatch (queue wait included, SPEC §3.7 step 9) is overdue; one timer for the earliest
 * deadline of the rest watches them all. An extension only moves a deadline later, so a timer
 * armed for the earlier one wakes the net too soon at worst, never too late.
 */
export function decideSafetyNet(tasks: Iterable<WatchedTask>, nowMs: number, graceSeconds: number): SafetyNetDecision {
  const overdue: string[] = [];
  let wakeInMs: number | null = null;
  for (const task of tasks) {
    if (task.settled) continue;
    const remainingMs = task.dispatchedAtMs + (task.timeoutSeconds + graceSeconds) * 1000 - nowMs;
    if (remainingMs <= 0) overdue.push(task.taskId);
    else if (wakeInMs === null || remainingMs < wakeInMs) wakeInMs = remainingMs;
  }
  return { overdue, wakeInMs };
}
