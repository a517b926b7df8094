import type { SubagentExecutionResult, SubagentProgress } from '../contracts';

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

/** The limits an outcome is read against. */
export interface ExecutionLimits {
  readonly timeoutSeconds: number;
  readonly queueTimeoutSeconds: number;
  /** Under the `reject` admission policy, the capacity-full text for an execution no slot picked up in time. */
  readonly capacityRejection: string | null;
}

/**
 * What an outcome means, the same for a lead task and a batch item; each decides from it by its
 * own policy (what is retried, what ends it, how the last failure reads).
 */
export type ExecutionVerdict =
  | { readonly kind: 'result'; readonly result: SubagentExecutionResult }
  | { readonly kind: 'cancelled' }
  /** The execution threw (not a result of the task's own). */
  | { readonly kind: 'crashed'; readonly error: string }
  /** Its worker went away: the lease expired (`heartbeat`) or the worker shut down and said so. */
  | { readonly kind: 'lost'; readonly cause: 'heartbeat' | 'shutdown'; readonly progress?: SubagentProgress }
  /** It ran past its execution cap. */
  | { readonly kind: 'timed_out'; readonly error: string; readonly progress?: SubagentProgress }
  /** No subagent slot picked it up in time: it never reached a model. */
  | { readonly kind: 'no_slot'; readonly capacityRejection: string | null; readonly queueTimeoutError: string };

/** Reads an execution outcome against its limits (pure). */
export function verdictOf(outcome: ExecutionOutcome, limits: ExecutionLimits): ExecutionVerdict {
  switch (outcome.kind) {
    case 'result':
      return { kind: 'result', result: outcome.result };
    case 'cancelled':
      return { kind: 'cancelled' };
    case 'error':
      return { kind: 'crashed', error: outcome.message };
    case 'worker_stopped':
      return { kind: 'lost', cause: 'shutdown', ...progressField(outcome.progress) };
    case 'timeout':
      switch (outcome.timeoutType) {
        case 'START_TO_CLOSE':
        case 'SCHEDULE_TO_CLOSE':
          return { kind: 'timed_out', error: `Execution timed out after ${limits.timeoutSeconds} seconds`, ...progressField(outcome.progress) };
        case 'SCHEDULE_TO_START':
          return {
            kind: 'no_slot',
            capacityRejection: limits.capacityRejection,
            queueTimeoutError: `Timed out after ${limits.queueTimeoutSeconds}s waiting for a subagent execution slot`,
          };
        case 'HEARTBEAT':
          return { kind: 'lost', cause: 'heartbeat', ...progressField(outcome.progress) };
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

/** `{ progress }` when there is any: decisions carry the field only then. */
export function progressField(progress: SubagentProgress | undefined): { progress?: SubagentProgress } {
  return progress === undefined ? {} : { progress };
}
