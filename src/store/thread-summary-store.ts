/**
 * A compaction summary of the older part of a thread (SPEC §6.5). It is kept
 * apart from the transcript: the thread feed stays what happened, and the summary is only
 * projected into model requests as hidden data.
 */
export interface ThreadSummaryRecord {
  readonly threadId: string;
  /**
   * Key of the last thread message the summary covers: it summarizes every message up to and
   * including this one (in write order), together with any summary before it.
   */
  readonly throughKey: string;
  /** The run whose lead step wrote it. */
  readonly runId: string;
  /** The summary, stored exactly. */
  readonly text: string;
}

/**
 * Thread compaction summaries, write-once per coverage point: a retried (or concurrent) lead step
 * that summarizes up to the same message again keeps the first summary, so the run never sees two.
 */
export interface ThreadSummaryStore {
  /**
   * Inserts unless the thread already has a summary through `record.throughKey` (first write
   * wins); returns the summary that is stored under that point, the caller's or the earlier one.
   */
  putSummaryIfAbsent(record: ThreadSummaryRecord): Promise<{ inserted: boolean; summary: ThreadSummaryRecord }>;
  /**
   * The thread's most recently written summary, or null. Each compaction extends the previous
   * one, so this is also the one that covers the most.
   */
  latestSummary(threadId: string): Promise<ThreadSummaryRecord | null>;
}
