/** Failure type of activity errors that retrying cannot fix (bad model config, missing API key). */
export const CONFIGURATION_ERROR_TYPE = 'ConfigurationError';

/** Failure type of a subagent execution stopped by its own (extendable) deadline: the task timed out. */
export const TASK_DEADLINE_EXCEEDED_TYPE = 'TaskDeadlineExceeded';

/**
 * Failure type of an activity stopped because its worker is shutting down (a deploy, a scale-in):
 * retryable, so the execution runs again on another worker at once instead of after a heartbeat
 * timeout, and never counts as the task's own failure.
 */
export const WORKER_SHUTDOWN_TYPE = 'WorkerShutdown';
