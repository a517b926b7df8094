import type { BatchAttemptOutcome, StopReason, SubagentExecutionResult, SubagentProgress, TerminalBatchItemStatus } from '../contracts';
import { progressField, verdictOf, type ExecutionOutcome } from './execution-outcome';

/** Longest wait between two tries of an item, as a multiple of `poll_interval_seconds`. */
export const BATCH_BACKOFF_CEILING_FACTOR = 30;

/** What the item workflow does after one try of an item (pure; the workflow applies it). */
export type ItemDecision =
  /** No slot: the try used no attempt. Record it, wait, ask again. */
  | { readonly kind: 'capacity_wait'; readonly outcome: Extract<BatchAttemptOutcome, 'capacity_rejected' | 'capacity_timeout'>; readonly error: string }
  /** A real failure with attempts left: record it (the attempt is used), wait, run again. */
  | { readonly kind: 'retry'; readonly outcome: Extract<BatchAttemptOutcome, 'failed' | 'lost'>; readonly error: string }
  | ItemTerminal;

export interface ItemTerminal {
  readonly kind: 'terminal';
  readonly status: TerminalBatchItemStatus;
  readonly stopReason: StopReason | null;
  readonly error: string | null;
  readonly result: SubagentExecutionResult | null;
  /** What the last try spent when it ended without a result (timed out, lost, stopped), if it said. */
  readonly progress?: SubagentProgress;
}

export interface ItemDecisionContext {
  /** The attempt this try ran as (1-based); capacity refusals do not advance it. */
  readonly attempt: number;
  readonly maxAttempts: number;
  readonly timeoutSeconds: number;
  readonly queueTimeoutSeconds: number;
  /** Under the `reject` admission policy, the capacity-full text for a try no slot picked up in time. */
  readonly capacityRejection: string | null;
}

function terminal(status: TerminalBatchItemStatus, error: string | null, result: SubagentExecutionResult | null = null, progress?: SubagentProgress): ItemTerminal {
  return { kind: 'terminal', status, stopReason: result?.stopReason ?? null, error, result, ...progressField(progress) };
}

/**
 * Decides what one try of a batch item means (SPEC Appendix C.3). A capacity refusal or queue
 * timeout happened before the model ran: it uses no attempt. A failed result, a crash, an
 * execution timeout, an expired lease (heartbeat timeout) and a worker that shut down each use
 * one; the last one ends the item with that failure.
 */
export function decideItemOutcome(outcome: ExecutionOutcome, ctx: ItemDecisionContext): ItemDecision {
  const last = ctx.attempt >= ctx.maxAttempts;
  const progress = 'progress' in outcome ? outcome.progress : undefined;
  const failure = (kind: 'failed' | 'lost', status: TerminalBatchItemStatus, error: string, result: SubagentExecutionResult | null = null): ItemDecision =>
    last
      ? terminal(status, ctx.maxAttempts > 1 ? `${error} (attempt ${ctx.attempt} of ${ctx.maxAttempts})` : error, result, progress)
      : { kind: 'retry', outcome: kind, error };
  const verdict = verdictOf(outcome, ctx);
  switch (verdict.kind) {
    case 'result': {
      const { result } = verdict;
      if (result.status === 'completed') return terminal('completed', null, result);
      if (result.status === 'cancelled') return terminal('cancelled', null, result);
      return failure('failed', 'failed', result.error ?? 'Subagent failed', result);
    }
    case 'cancelled':
      return terminal('cancelled', null, null, progress);
    case 'crashed':
      return failure('failed', 'failed', verdict.error);
    case 'lost':
      return verdict.cause === 'shutdown'
        ? failure('lost', 'failed', `Subagent worker shut down before the item finished`)
        : failure('lost', 'failed', `Subagent worker stopped responding (lease of the item expired)`);
    case 'timed_out':
      return failure('failed', 'timed_out', verdict.error);
    case 'no_slot':
      return verdict.capacityRejection !== null
        ? { kind: 'capacity_wait', outcome: 'capacity_rejected', error: verdict.capacityRejection }
        : { kind: 'capacity_wait', outcome: 'capacity_timeout', error: verdict.queueTimeoutError };
    default: {
      const unreachable: never = verdict;
      throw new Error(`unknown verdict ${JSON.stringify(unreachable)}`);
    }
  }
}

/** Wait before the next try: `base` doubled per repeat (`repeat` 1 waits `base`), at most 30 x `base`. */
export function itemBackoffMs(baseSeconds: number, repeat: number): number {
  const factor = Math.min(2 ** Math.max(0, repeat - 1), BATCH_BACKOFF_CEILING_FACTOR);
  return Math.round(baseSeconds * factor * 1000);
}
