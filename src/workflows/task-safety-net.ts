import { CancellationScope, condition } from '@temporalio/workflow';
import type { LeadRunContext, TaskControl } from './lead-run-context';
import { decideSafetyNet, type WatchedTask } from './safety-net-decision';

function watched(controls: ReadonlyMap<string, TaskControl>): WatchedTask[] {
  return [...controls.values()].map((control) => ({
    taskId: control.task.taskId,
    dispatchedAtMs: control.dispatchedAtMs,
    timeoutSeconds: control.timeoutSeconds + control.task.extendedSeconds,
    settled: isSettled(control),
  }));
}

function isSettled(control: TaskControl): boolean {
  return control.overrun || control.scope.consideredCancelled;
}

/** Evaluated after every activation while the net waits: stops at the first task still watched. */
function noneWatched(controls: ReadonlyMap<string, TaskControl>): boolean {
  for (const control of controls.values()) if (!isSettled(control)) return false;
  return true;
}

/**
 * The safety net of every task in flight (patch `batched-task-bookkeeping`): one timer for the earliest
 * deadline (timeout plus grace after dispatch, see {@link decideSafetyNet}) instead of one per
 * task. An overdue task is marked `overrun` and its scope cancelled; it then ends
 * `polling_timed_out`. Returns once no task is left to watch, cancelling its timer. It runs
 * non-cancellable: a cancelled run cancels the tasks, which ends the net.
 */
export function watchTaskDeadlines(run: LeadRunContext): Promise<void> {
  const controls = run.taskControls;
  const grace = run.input.limits.pollingGraceSeconds;
  return CancellationScope.nonCancellable(async () => {
    for (;;) {
      const { overdue, wakeInMs } = decideSafetyNet(watched(controls), Date.now(), grace);
      for (const taskId of overdue) {
        const control = controls.get(taskId);
        if (control === undefined) continue;
        control.overrun = true;
        control.scope.cancel();
      }
      if (wakeInMs === null) return;
      // Woken early only once nothing is left to watch; an extension is seen when the timer fires.
      await condition(() => noneWatched(controls), wakeInMs, { summary: 'safety net' });
    }
  });
}
