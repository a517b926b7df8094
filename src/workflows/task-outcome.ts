import type { StopReason, SubagentExecutionResult, SubagentProgress, TaskErrorCode, WireStatus } from '../contracts';

/**
 * How one `runSubagent` execution ended, as the workflow observed it. A timed-out execution may
 * have told what it had done so far (`progress`, from the failure's details or its last heartbeat).
 */
export type ExecutionOutcome =
  | { readonly kind: 'result'; readonly result: SubagentExecutionResult }
  | {
      readonly kind: 'timeout';
      readonly timeoutType: 'START_TO_CLOSE' | 'SCHEDULE_TO_START' | 'HEARTBEAT' | 'SCHEDULE_TO_CLOSE';
      readonly progress?: SubagentProgress;
    }
  | { readonly kind: 'cancelled' }
  /** Its worker shut down gracefully and cancelled it (a deploy): a lost worker that said so. */
  | { readonly kind: 'worker_stopped'; readonly progress?: SubagentProgress }
  | { readonly kind: 'error'; readonly message: string };

export interface TerminalDecision {
  readonly kind: 'terminal';
  readonly status: WireStatus;
  readonly stopReason: StopReason | null;
  readonly error: string | null;
  /** Set when the task never reached a model for lack of capacity. */
  readonly errorCode: TaskErrorCode | null;
  readonly result: SubagentExecutionResult | null;
  /** Usage, model and evidence of an execution that ran but ended without a result the task keeps. */
  readonly progress?: SubagentProgress;
}

export type TaskDecision = { readonly kind: 'retry' } | TerminalDecision;

export interface DecisionContext {
  /** The run was cancelled before this outcome arrived: the cancellation is the first terminal writer. */
  readonly cancelRequested: boolean;
  readonly attempt: number;
  readonly maxAttempts: number;
  readonly timeoutSeconds: number;
  readonly queueTimeoutSeconds: number;
  /** Under the `reject` admission policy, the capacity-full text for a task no slot picked up in time. */
  readonly capacityRejection?: string | null;
}

function terminal(
  status: WireStatus,
  error: string | null,
  result: SubagentExecutionResult | null = null,
  errorCode: TaskErrorCode | null = null,
): TerminalDecision {
  return { kind: 'terminal', status, stopReason: result?.stopReason ?? null, error, errorCode, result };
}

/** `decision` with what the execution reported, when it reported anything. */
function withProgress(decision: TerminalDecision, progress: SubagentProgress | undefined): TerminalDecision {
  return progress === undefined ? decision : { ...decision, progress };
}

/** What an execution had spent and found, as far as its outcome tells. */
function progressOf(outcome: ExecutionOutcome): SubagentProgress | undefined {
  if (outcome.kind === 'error' || outcome.kind === 'cancelled') return undefined;
  if (outcome.kind !== 'result') return outcome.progress;
  const { steps, usage, modelName, evidence } = outcome.result;
  return { steps, usage, modelName, evidence: evidence ?? null };
}

/** A task refused admission: it fails before any model call (SPEC C.1). */
export function capacityRejected(message: string): TerminalDecision {
  return terminal('failed', message, null, 'capacity_rejected');
}

/**
 * Decides what an execution outcome means for the task (pure; the workflow applies it).
 * Only a lost worker (heartbeat timeout, or a worker that shut down) is retried, within the attempt
 * budget: a model or tool failure is a real result, and a start-to-close timeout is the task's
 * execution cap.
 */
export function decideTaskOutcome(outcome: ExecutionOutcome, ctx: DecisionContext): TaskDecision {
  // A completion that arrives after the user cancelled is fenced: the task ends cancelled, once.
  // Even then it keeps what the execution spent: usage never drops because a task was stopped.
  if (ctx.cancelRequested) return withProgress(terminal('cancelled', null), progressOf(outcome));
  switch (outcome.kind) {
    case 'result':
      return terminal(outcome.result.status, outcome.result.error, outcome.result);
    case 'cancelled':
      return terminal('cancelled', null);
    case 'error':
      return terminal('failed', outcome.message);
    case 'worker_stopped':
      return ctx.attempt < ctx.maxAttempts
        ? { kind: 'retry' }
        : terminal('failed', `Subagent worker shut down during the last of ${ctx.maxAttempts} attempts`);
    case 'timeout':
      switch (outcome.timeoutType) {
        case 'START_TO_CLOSE':
        case 'SCHEDULE_TO_CLOSE':
          return withProgress(terminal('timed_out', `Execution timed out after ${ctx.timeoutSeconds} seconds`), outcome.progress);
        case 'SCHEDULE_TO_START':
          return ctx.capacityRejection
            ? capacityRejected(ctx.capacityRejection)
            : terminal('failed', `Timed out after ${ctx.queueTimeoutSeconds}s waiting for a subagent execution slot`, null, 'capacity_timeout');
        case 'HEARTBEAT':
          return ctx.attempt < ctx.maxAttempts
            ? { kind: 'retry' }
            : withProgress(terminal('failed', `Subagent worker stopped responding (heartbeat timeout) on all ${ctx.maxAttempts} attempts`), outcome.progress);
        default: {
          const unreachable: never = outcome.timeoutType;
          throw new Error(`unknown timeout type ${String(unreachable)}`);
        }
      }
    default: {
      const unreachable: never = outcome;
      throw new Error(`unknown outcome ${JSON.stringify(unreachable)}`);
    }
  }
}

/**
 * The safety net's verdict when a task outlives its timeout plus the grace period, counted from
 * dispatch (SPEC §3.7 step 9): the task is given up on and cancelled.
 */
export function pollingTimedOut(timeoutSeconds: number, status: string, progress?: SubagentProgress): TerminalDecision {
  const minutes = Math.floor(timeoutSeconds / 60);
  return withProgress(
    terminal('polling_timed_out', `Task polling timed out after ${minutes} minutes. This may indicate the background task is stuck. Status: ${status}`),
    progress,
  );
}
