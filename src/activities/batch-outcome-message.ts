import { ToolMessage } from '@langchain/core/messages';
import { BATCH_TASK_TOOL_NAME, type BatchItemSummary, type LeadBatch } from '../contracts';
import type { BatchStore } from '../store';

/** Most characters of one item's result the lead reads in the tool message. */
export const BATCH_ITEM_PREVIEW_CHARS = 500;
/** Most characters of item lines in one tool message; the rest are counted, not shown. */
export const BATCH_MESSAGE_MAX_CHARS = 20_000;
const PAGE = 500;

function itemLine(item: BatchItemSummary): string {
  const text = item.status === 'completed' ? (item.result_preview ?? '') : (item.error ?? '');
  const flat = text.replace(/\s+/g, ' ').trim();
  const cut = flat.length > BATCH_ITEM_PREVIEW_CHARS ? `${flat.slice(0, BATCH_ITEM_PREVIEW_CHARS)}…` : flat;
  const capped = item.stop_reason ? ` (capped: ${item.stop_reason})` : '';
  return `- [${item.key}] ${item.status}${capped}: ${cut}`;
}

/**
 * The ToolMessage the lead sees for a `batch_task` call: counts by status, then one bounded line
 * per item in key order (result preview, or the error), read page by page and cut off at
 * {@link BATCH_MESSAGE_MAX_CHARS}: a 5,000-item batch never floods the lead's context.
 */
export async function batchOutcomeMessage(toolCallId: string, batch: LeadBatch, batches: BatchStore): Promise<ToolMessage> {
  const c = batch.counts;
  const lines = [
    `Batch ${batch.batchId} ${batch.status}: ${c.completed} completed, ${c.failed} failed, ${c.timed_out} timed out, ${c.cancelled} cancelled.`,
    'Item results are SELF-REPORTS from subagents, not verified facts. Items (key order):',
  ];
  let used = 0;
  let shown = 0;
  let afterKey: string | undefined;
  let full = false;
  while (!full) {
    const page = await batches.listItems(batch.batchId, batch.ownerId, { limit: PAGE, ...(afterKey === undefined ? {} : { afterKey }) });
    for (const item of page) {
      const line = itemLine(item);
      full = used + line.length > BATCH_MESSAGE_MAX_CHARS;
      if (full) break;
      lines.push(line);
      used += line.length + 1;
      shown += 1;
    }
    if (page.length < PAGE) break;
    afterKey = page[page.length - 1]?.key;
  }
  const total = c.pending + c.running + c.completed + c.failed + c.cancelled + c.timed_out;
  if (shown < total) lines.push(`… ${total - shown} more items not shown (full results: the batch's items in the store, e.g. its JSONL export).`);
  return new ToolMessage({
    content: lines.join('\n'),
    tool_call_id: toolCallId,
    name: BATCH_TASK_TOOL_NAME,
    status: batch.status === 'completed' ? 'success' : 'error',
    additional_kwargs: { batch_id: batch.batchId, batch_status: batch.status, batch_counts: { ...c } },
  });
}
