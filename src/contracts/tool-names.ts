/** Name of the lead's tool that delegates one task to a subagent. */
export const TASK_TOOL_NAME = 'task';

/** Name of the lead's tool that hands many items of one kind to a durable batch (SPEC Appendix C.3). */
export const BATCH_TASK_TOOL_NAME = 'batch_task';

/**
 * The lead's own tools, in the order they are offered: the thread-workspace tools and `web_fetch`
 * (`bash` only where `sandbox.allow_host_bash` is on). `task`/`batch_task` are governed apart.
 */
export const LEAD_TOOL_NAMES = ['ls', 'read_file', 'write_file', 'str_replace', 'bash', 'web_fetch'] as const;
export type LeadToolName = (typeof LEAD_TOOL_NAMES)[number];

/** Name of the lead's tool that asks the user one question and waits for the answer. */
export const ASK_CLARIFICATION_TOOL_NAME = 'ask_clarification';

/**
 * Name of the tool that loads deferred tools' schemas (`tool_search.enabled`). Infrastructure, like
 * `task`: it joins an agent's tools whenever it has deferred ones, whatever its allow/deny lists say.
 */
export const TOOL_SEARCH_TOOL_NAME = 'tool_search';

/** Keys the run gives each tool call of a lead response: `<turn>.<index>`, never the provider's id. */
export function leadCallId(turn: number, index: number): string {
  return `${turn}.${index}`;
}
