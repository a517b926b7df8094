import type { StopReason, SubagentExecutionResult, SubagentProgress, TaskErrorCode, WireStatus } from '../contracts';
import { verdictOf, type ExecutionOutcome } from './execution-outcome';

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
  const verdict = verdictOf(outcome, { timeoutSeconds: ctx.timeoutSeconds, queueTimeoutSeconds: ctx.queueTimeoutSeconds, capacityRejection: ctx.capacityRejection ?? null });
  switch (verdict.kind) {
    case 'result':
      return terminal(verdict.result.status, verdict.result.error, verdict.result);
    case 'cancelled':
      return terminal('cancelled', null);
    case 'crashed':
      return terminal('failed', verdict.error);
    case 'timed_out':
      return withProgress(terminal('timed_out', verdict.error), verdict.progress);
    case 'no_slot':
      return verdict.capacityRejection ? capacityRejected(verdict.capacityRejection) : terminal('failed', verdict.queueTimeoutError, null, 'capacity_timeout');
    case 'lost':
      if (ctx.attempt < ctx.maxAttempts) return { kind: 'retry' };
      return verdict.cause === 'shutdown'
        ? terminal('failed', `Subagent worker shut down during the last of ${ctx.maxAttempts} attempts`)
        : withProgress(terminal('failed', `Subagent worker stopped responding (heartbeat timeout) on all ${ctx.maxAttempts} attempts`), verdict.progress);
    default: {
      const unreachable: never = verdict;
      throw new Error(`unknown verdict ${JSON.stringify(unreachable)}`);
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
