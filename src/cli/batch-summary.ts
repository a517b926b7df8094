import type { BatchItemCounts, BatchItemRecord } from '../contracts';
import type { BatchOutcome } from './batch-report';

/** At most this many failed items are listed; the rest are counted. */
export const SUMMARY_MAX_FAILURES = 20;
const ERROR_MAX_CHARS = 300;

/** Items the summary lists: the ones that ended without completing, cancelled ones aside. */
export function isFailedItem(item: BatchItemRecord): boolean {
  return item.status === 'failed' || item.status === 'timed_out';
}

/** `4 completed, 1 failed, 0 timed out, 0 cancelled` (plus pending/running ones, if any are left). */
export function formatItemCounts(counts: BatchItemCounts): string {
  const open = counts.pending + counts.running;
  const unfinished = open > 0 ? `, ${open} not finished` : '';
  return `${counts.completed} completed, ${counts.failed} failed, ${counts.timed_out} timed out, ${counts.cancelled} cancelled${unfinished}`;
}

function firstLine(text: string): string {
  const line = (text.split('\n')[0] ?? '').trim();
  return line.length > ERROR_MAX_CHARS ? `${line.slice(0, ERROR_MAX_CHARS)}...` : line;
}

/**
 * The human summary of a finished batch: status and counts, then each failed or timed-out item's
 * key, line in the file and error (`lines[position]` is an item's 1-based line).
 */
export function formatBatchSummary(outcome: BatchOutcome, lines: readonly number[]): string[] {
  const out = [`batch ${outcome.batchId} ${outcome.status}: ${outcome.itemCount} items, ${formatItemCounts(outcome.counts)}`];
  const failed = outcome.items.filter(isFailedItem);
  if (failed.length > 0) out.push('failed items:');
  for (const item of failed.slice(0, SUMMARY_MAX_FAILURES)) {
    const line = lines[item.position];
    const where = line === undefined ? '' : ` (line ${line})`;
    out.push(`  ${item.key}${where}: ${item.status === 'timed_out' ? 'timed out' : 'failed'}: ${firstLine(item.error ?? '(no error recorded)')}`);
  }
  if (failed.length > SUMMARY_MAX_FAILURES) out.push(`  ... and ${failed.length - SUMMARY_MAX_FAILURES} more`);
  return out;
}
