import { condition, setCurrentDetails, setHandler } from '@temporalio/workflow';
import type { LeadRunState, TaskPhase, TaskState, WireStatus } from '../contracts';
import { applyProgress } from '../contracts/task-spend';
import { inputSchemas } from './input-schemas';
import type { LeadRunContext, TaskControl } from './lead-run-context';
import { answerClarificationUpdate, cancelTaskUpdate, extendTaskUpdate, leadRunStateQuery, taskProgressSignal, taskTimeoutQuery } from './lead-run-messages';
import { progressDetails } from './progress-details';

/**
 * The lead run's queries and updates: `state`, `taskTimeout`, `cancelTask`, `extendTask`,
 * `answerClarification`. Every update validates its input and the run's state first, so a refused
 * request changes nothing and leaves no trace in history.
 */
export function registerLeadRunHandlers(run: LeadRunContext): void {
  const { state, taskControls } = run;
  setHandler(leadRunStateQuery, () => state);
  setHandler(taskTimeoutQuery, (taskId) => {
    const control = taskControls.get(taskId);
    const task = state.tasks.find((t) => t.taskId === taskId);
    return control === undefined || task === undefined ? 0 : control.timeoutSeconds + task.extendedSeconds;
  });
  setHandler(taskProgressSignal, (raw) => {
    // Signals have no validator: a malformed, late or stale report changes nothing.
    const report = inputSchemas.taskProgressReport().safeParse(raw);
    if (!report.success) return;
    const { taskId, attempt, progress } = report.data;
    const task = state.tasks.find((t) => t.taskId === taskId);
    if (task === undefined || task.status !== 'running' || task.attempts !== attempt) return;
    applyProgress(task, progress);
    // Current details are not a command: refreshing them here keeps Temporal Web's usage live and replay unchanged.
    setCurrentDetails(progressDetails(state));
  });
  setHandler(
    cancelTaskUpdate,
    async ({ taskId }) => {
      taskControls.get(taskId)?.scope.cancel();
      const task = state.tasks.find((t) => t.taskId === taskId);
      await condition(() => task === undefined || isTerminalPhase(task.status));
      return { taskId, status: task === undefined || !isTerminalPhase(task.status) ? 'cancelled' : task.status };
    },
    { validator: (request) => void runningTask(inputSchemas.cancelTaskRequest().parse(request).taskId, state, taskControls) },
  );
  setHandler(
    extendTaskUpdate,
    ({ taskId, seconds }) => {
      const { task, control } = runningTask(taskId, state, taskControls);
      // Up to the run's ceiling in total; the validator refused a task with no room left.
      task.extendedSeconds += Math.min(seconds, run.input.limits.maxTaskExtensionSeconds - task.extendedSeconds);
      return { taskId, timeoutSeconds: control.timeoutSeconds + task.extendedSeconds, extendedSeconds: task.extendedSeconds };
    },
    { validator: (request) => validateExtendTask(inputSchemas.extendTaskRequest().parse(request).taskId, run) },
  );
  setHandler(
    answerClarificationUpdate,
    (request) => {
      run.answer = request.answer.trim();
      return { callId: state.question?.callId ?? '', question: state.question?.text ?? '' };
    },
    {
      validator: (request) => {
        inputSchemas.answerClarificationRequest().parse(request);
        if (state.question === null) throw new Error(`answer: run ${state.runId} is not waiting for an answer`);
        if (run.answer !== null) throw new Error(`answer: run ${state.runId} already has an answer to its question`);
      },
    },
  );
}

/** The task updates act on a task of this run that is still running (or waiting for a slot). @throws naming why not */
function runningTask(taskId: string, state: LeadRunState, controls: ReadonlyMap<string, TaskControl>): { task: TaskState; control: TaskControl } {
  const task = state.tasks.find((t) => t.taskId === taskId);
  if (task === undefined) throw new Error(`taskId: no task '${taskId}' in run ${state.runId}`);
  const control = controls.get(taskId);
  if (isTerminalPhase(task.status) || control === undefined) throw new Error(`taskId: task '${taskId}' already ended ${task.status}`);
  return { task, control };
}

/** `extendTask` needs a running task, a run with extendable deadlines, and room under the ceiling. */
function validateExtendTask(taskId: string, run: LeadRunContext): void {
  const { task } = runningTask(taskId, run.state, run.taskControls);
  const ceiling = run.input.limits.maxTaskExtensionSeconds;
  if (!run.deadlines || ceiling === 0) throw new Error(`seconds: run ${run.state.runId} cannot extend its tasks (subagent_runtime.max_task_extension_seconds is 0 for it)`);
  if (task.extendedSeconds >= ceiling) throw new Error(`seconds: task '${taskId}' is already extended by ${task.extendedSeconds} s, the most this run allows`);
}

function isTerminalPhase(status: TaskPhase): status is WireStatus {
  return status !== 'pending' && status !== 'running';
}
