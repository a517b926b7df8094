/** Task queue of all workflows and the lead's activities. */
export const WORKFLOW_TASK_QUEUE = 'deerflow';
/** Task queue of `runSubagent` only; its worker slots are the subagent admission limit. */
export const SUBAGENT_TASK_QUEUE = 'deerflow-subagents';
