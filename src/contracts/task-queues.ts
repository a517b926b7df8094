/** Task queue of all workflows and the lead's activities. */
export const WORKFLOW_TASK_QUEUE = 'deerflow';
/** Task queue of `runSubagent` only; its worker slots are the subagent admission limit. */
export const SUBAGENT_TASK_QUEUE = 'deerflow-subagents';
/**
 * Task queue of `runBatchItem` only: batch items wait here for an execution slot, so a batch's
 * queued items never fill the backlog that lead runs' admission reads, nor take their slots.
 */
export const BATCH_ITEM_TASK_QUEUE = 'deerflow-batch-items';
