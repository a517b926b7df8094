import type { CancellationScope } from '@temporalio/workflow';
import type { LeadCallRef, LeadRunInput, LeadRunState, TaskState } from '../contracts';
import type { LeadGuardState } from './lead-guards';
import type { LeadPatchId } from './patches';
import type { ToolOutcomeWriter } from './tool-outcome-writer';

/** What the run's updates and its safety net can act on for one running task. */
export interface TaskControl {
  readonly scope: CancellationScope;
  /** The task's own timeout before extensions (a per-call `timeout_seconds` already applied). */
  readonly timeoutSeconds: number;
  readonly task: TaskState;
  /** Workflow time the task was dispatched at: its safety-net deadline counts from there. */
  readonly dispatchedAtMs: number;
  /** Set when the run's safety net gave up on the task (it cancelled the task's scope then). */
  overrun: boolean;
}

/** One lead run's input, live state and call bookkeeping, shared by the workflow's parts. */
export interface LeadRunContext {
  readonly input: LeadRunInput;
  readonly state: LeadRunState;
  /**
   * Whether the run takes the path of lead patch `id`: every one in runs started since patch
   * `lead-patches-in-one` (no marker of its own), else the SDK's `patched(id)`.
   */
  readonly hasPatch: (id: LeadPatchId) => boolean;
  /**
   * Runs started after patch `lead-calls`: calls keyed by the run's own ids, the lead's own tools,
   * every outcome written as soon as it is known, unanswered calls closed. Older runs replay without.
   */
  readonly ownCallIds: boolean;
  /** Calls of the current response whose outcome is not written yet, by call id. */
  readonly open: Map<string, LeadCallRef>;
  /** The turn of a model step in flight: its stored message may hold calls the run never saw. */
  unseenTurn: number | null;
  /**
   * Runs started after patch `lead-guards`: a final model failure fails the run, length and safety
   * stops end it, the token budget and loop detection warn and then force a final answer.
   */
  readonly guarded: boolean;
  /** What the guards remember so far in this run. */
  guards: LeadGuardState;
  /** Runs started after patch `lead-continue-as-new` continue as new between turns when due. */
  readonly continues: boolean;
  /** Each task still running, by task id: its scope (update `cancelTask`) and own timeout (`extendTask`). */
  readonly taskControls: Map<string, TaskControl>;
  /** Runs started after patch `task-deadlines` can extend a running task's deadline. */
  readonly deadlines: boolean;
  /**
   * Runs started after patch `batched-task-bookkeeping` write the outcomes known together in one
   * local activity; they also watch their tasks in flight with one timer (not one per task) and
   * admit in a local activity. Null for older runs. Since patch `lead-outcomes-in-step` it leaves a
   * response's last outcomes to the next model step.
   */
  readonly outcomes: ToolOutcomeWriter | null;
  /** Runs started after patch `lead-clarification` offer `ask_clarification` and wait for answers. */
  readonly clarifies: boolean;
  /** The answer to `state.question`, once update `answerClarification` delivered it. */
  answer: string | null;
  /**
   * Runs started after patch `lead-task-attributes-after-step` upsert the tasks' search attributes a
   * response's last outcomes change with the run's next upsert, not in the workflow task that
   * learned them.
   */
  readonly attributesAfterStep: boolean;
  /** Model steps as local activities (`modelSteps: local`, patch `lead-local-model-steps`). */
  readonly localModelSteps: boolean;
}
