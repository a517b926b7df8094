import type { StopReason, SubagentExecutionResult, TaskErrorCode, WireStatus } from '../contracts';

/** How one `runSubagent` execution ended, as the workflow observed it. */
export type ExecutionOutcome =
  | { readonly kind: 'result'; readonly result: SubagentExecutionResult }
  | { readonly kind: 'timeout'; readonly timeoutType: 'START_TO_CLOSE' | 'SCHEDULE_TO_START' | 'HEARTBEAT' | 'SCHEDULE_TO_CLOSE' }
  | { readonly kind: 'cancelled' }
  | { readonly kind: 'error'; readonly message: string };

export interface TerminalDecision {
  readonly kind: 'terminal';
  readonly status: WireStatus;
  readonly stopReason: StopReason | null;
  readonly error: string | null;
  /** Set when the task never reached a model for lack of capacity. */
  readonly errorCode: TaskErrorCode | null;
  readonly result: SubagentExecutionResult | null;
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

/** A task refused admission: it fails before any model call (SPEC C.1). */
export function capacityRejected(message: string): TerminalDecision {
  return terminal('failed', message, null, 'capacity_rejected');
}

/**
 * Decides what an execution outcome means for the task (pure; the workflow applies it).
 * Only a lost worker (heartbeat timeout) is retried, within the attempt budget: a model or tool
 * failure is a real result, and a start-to-close timeout is the task's execution cap.
 */
export function decideTaskOutcome(outcome: ExecutionOutcome, ctx: DecisionContext): TaskDecision {
  // A completion that arrives after the user cancelled is fenced: the task ends cancelled, once.
  if (ctx.cancelRequested) return terminal('cancelled', null);
  switch (outcome.kind) {
    case 'result':
      return terminal(outcome.result.status, outcome.result.error, outcome.result);
    case 'cancelled':
      return terminal('cancelled', null);
    case 'error':
      return terminal('failed', outcome.message);
    case 'timeout':
      switch (outcome.timeoutType) {
        case 'START_TO_CLOSE':
        case 'SCHEDULE_TO_CLOSE':
          return terminal('timed_out', `Execution timed out after ${ctx.timeoutSeconds} seconds`);
        case 'SCHEDULE_TO_START':
          return ctx.capacityRejection
            ? capacityRejected(ctx.capacityRejection)
            : terminal('failed', `Timed out after ${ctx.queueTimeoutSeconds}s waiting for a subagent execution slot`, null, 'capacity_timeout');
        case 'HEARTBEAT':
          return ctx.attempt < ctx.maxAttempts
            ? { kind: 'retry' }
            : terminal('failed', `Subagent worker stopped responding (heartbeat timeout) on all ${ctx.maxAttempts} attempts`);
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
export function pollingTimedOut(timeoutSeconds: number, status: string): TerminalDecision {
  const minutes = Math.floor(timeoutSeconds / 60);
  return terminal(
    'polling_timed_out',
    `Task polling timed out after ${minutes} minutes. This may indicate the background task is stuck. Status: ${status}`,
  );
}
