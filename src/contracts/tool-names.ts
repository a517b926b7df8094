/** Name of the lead's tool that delegates one task to a subagent. */
export const TASK_TOOL_NAME = 'task';

/** Name of the lead's tool that hands many items of one kind to a durable batch (SPEC Appendix C.3). */
export const BATCH_TASK_TOOL_NAME = 'batch_task';
