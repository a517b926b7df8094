/** Failure type of activity errors that retrying cannot fix (bad model config, missing API key). */
export const CONFIGURATION_ERROR_TYPE = 'ConfigurationError';

/** Failure type of a subagent execution stopped by its own (extendable) deadline: the task timed out. */
export const TASK_DEADLINE_EXCEEDED_TYPE = 'TaskDeadlineExceeded';
