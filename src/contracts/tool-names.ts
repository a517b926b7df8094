/** Name of the lead's tool that delegates one task to a subagent. */
export const TASK_TOOL_NAME = 'task';
