/**
 * Description of the lead's `batch_task` tool (SPEC Appendix C.3): an explicit choice for many
 * independent items of one kind, never a way to run one large task.
 */
export function buildBatchTaskToolDescription(options: { maxItems: number }): string {
  return [
    'Run a durable batch: one subagent type applied to many independent items (the same kind of work on different inputs), each item done exactly once.',
    'Use it only when you have a list of items that need no coordination with each other, typically more than a handful: classifying, summarizing or checking each entry of a list.',
    'Do NOT use it for one large or complex task, for steps that depend on each other, or for items that write to the same files or state; use `task` or work directly instead.',
    '',
    `Each item runs as its own subagent task with its own retries; up to ${options.maxItems} items per batch. Items do not count toward the per-run \`task\` budget, but they share the same subagent slots.`,
    'The call returns when every item has ended, with the counts by status and each item’s result (previews, in key order). Like `task` results, item results are SELF-REPORTS, not verified facts.',
    '',
    'Arguments: `title` (what the batch is for), `items` (a list of `{ key, prompt }`: `key` unique and short, `prompt` the complete, self-contained task of that item; optional `acceptance_criteria`), `subagent_type`, and optionally `max_live_items` / `max_running_items` (clamped to the configured ceilings).',
  ].join('\n');
}
