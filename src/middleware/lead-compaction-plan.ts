/**
 * Lead compaction, the pure part (SPEC §6.5). The lead's request is rebuilt from
 * the stored thread on every step, so compaction is a plan over that rebuilt history: which
 * messages a stored summary already covers, and whether the rest now passes the trigger and where
 * to cut it. Coverage is kept in terms of stored records (the summary store records the key of the
 * last record it covers), because the request history is derived: the dangling-call repair may
 * add made-up answers and move late ones up to their call.
 */
import { compactionCut, shouldCompact, type CompactableMessage, type CompactionTrigger } from './compaction';

/**
 * Which stored record each message of the request history came from. `thread[i]` is record `i`;
 * `history` is the repaired thread, holding the same instances for the messages it kept. A made-up
 * answer (no record of its own) takes the origin of the message before it, i.e. of its call's
 * block; only the origins of non-tool messages are ever used to cut, and the repair never makes
 * those up. Messages rebuilt later (framing, neutralization) keep their index, so the origins
 * stay aligned with the request history.
 */
export function requestOrigins<M extends object>(thread: readonly M[], history: readonly M[]): number[] {
  const index = new Map<M, number>(thread.map((message, i) => [message, i]));
  const origins: number[] = [];
  for (const message of history) origins.push(index.get(message) ?? origins[origins.length - 1] ?? 0);
  return origins;
}

/** How the lead compacts: the `summarization` config. */
export interface LeadCompactionOptions {
  readonly trigger: CompactionTrigger;
  /** Recent messages kept as they are (`summarization.keep.messages`). */
  readonly keep: number;
}

/** What one lead step does with its history. */
export interface LeadCompactionPlan {
  /** Index of the first history message the stored summary does not cover: the request keeps `history[start..]`. */
  readonly start: number;
  /**
   * Set when `history[start..]` passes the trigger: `history[start, end)` is summarized (with the
   * stored summary) and the request keeps `history[end..]`. The new summary covers the records up
   * to and including `throughRecord`.
   */
  readonly compact: { readonly end: number; readonly throughRecord: number } | null;
}

/**
 * Plans one lead step's compaction.
 * - The covered part ends where the first non-tool message from a record after `coveredThrough`
 *   starts. Non-tool messages keep their record order through the repair, and tool messages sit
 *   right after their call, so what follows is exactly the uncovered messages with every tool
 *   message after its call.
 * - The uncovered part is compacted like a subagent's history: when it meets `trigger`, everything
 *   but the last `keep` messages is summarized, the cut moved earlier so the kept part never starts
 *   with a tool result ({@link compactionCut}). The new coverage ends right before the record of
 *   the first kept message, so the next step finds the same start.
 * @param history - the request history (repaired, so every tool message follows its call)
 * @param origins - {@link requestOrigins} of `history`
 * @param coveredThrough - index of the last record the stored summary covers; -1 without one
 */
export function planLeadCompaction(
  history: readonly CompactableMessage[],
  origins: readonly number[],
  coveredThrough: number,
  options: LeadCompactionOptions,
): LeadCompactionPlan {
  const start = firstUncovered(history, origins, coveredThrough);
  const uncovered = history.slice(start);
  if (!shouldCompact(uncovered, options.trigger)) return { start, compact: null };
  const cut = compactionCut(uncovered, options.keep);
  if (cut <= 0) return { start, compact: null };
  const end = start + cut;
  return { start, compact: { end, throughRecord: (origins[end] ?? 0) - 1 } };
}

function firstUncovered(history: readonly CompactableMessage[], origins: readonly number[], coveredThrough: number): number {
  if (coveredThrough < 0) return 0;
  const found = history.findIndex((message, i) => message.type !== 'tool' && (origins[i] ?? -1) > coveredThrough);
  // A summary never covers the newest message (the cut keeps at least one), so this is a corner
  // that cannot arise from compaction; nothing is left to send after the summary then.
  return found === -1 ? history.length : found;
}
