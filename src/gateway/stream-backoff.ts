/** How an SSE stream that has caught up paces its store reads (and its `isOpen` checks). */
export interface PollBackoff {
  /** Pause after a poll that found rows, and the first pause once idle. */
  readonly baseMs: number;
  /** Longest pause; a value below `baseMs` counts as `baseMs` (no backoff). */
  readonly maxMs: number;
}

/**
 * The pause before the next poll of a caught-up stream: the base as soon as a poll found rows (a
 * live run tends to write in bursts), otherwise double the previous pause, up to the maximum. An
 * idle stream thus costs one store read and one Temporal describe per `maxMs` instead of per
 * `baseMs`, while a new row still goes out within `maxMs` of being written.
 * @param previousMs - the pause before this poll, `null` for the first pause of the stream
 * @param foundRows - whether the poll that just finished read any row
 */
export function nextPollPause(previousMs: number | null, foundRows: boolean, backoff: PollBackoff): number {
  if (foundRows || previousMs === null) return backoff.baseMs;
  return Math.min(Math.max(previousMs * 2, backoff.baseMs), Math.max(backoff.baseMs, backoff.maxMs));
}
