import type { ExecutionOutcome } from './execution-outcome';

/** How a lead tool call ended when its activity did not answer (pure). */
export interface LeadToolFailure {
  readonly status: 'failed' | 'cancelled';
  readonly error: string;
}

/**
 * What a `runLeadTool` activity failure means for the call: a cancellation is `cancelled`; a
 * timeout or a lost worker is a failed call the lead can see and work around, never a failed run.
 */
export function decideLeadToolFailure(
  outcome: Exclude<ExecutionOutcome, { kind: 'result' }>,
  limits: { readonly timeoutSeconds: number; readonly heartbeatTimeoutSeconds: number },
): LeadToolFailure {
  switch (outcome.kind) {
    case 'cancelled':
      return { status: 'cancelled', error: 'cancelled' };
    case 'error':
      return { status: 'failed', error: outcome.message };
    case 'worker_stopped':
      // Never rerun behind the lead's back: the tool may have run in part.
      return { status: 'failed', error: "the tool's worker shut down before it finished (it may have run in part); call it again if still needed" };
    case 'timeout':
      return outcome.timeoutType === 'HEARTBEAT'
        ? { status: 'failed', error: `the tool's worker stopped responding (no heartbeat for ${limits.heartbeatTimeoutSeconds} s)` }
        : { status: 'failed', error: `the tool did not finish within ${limits.timeoutSeconds} s` };
    default: {
      const unreachable: never = outcome;
      throw new Error(`unknown outcome ${JSON.stringify(unreachable)}`);
    }
  }
}
