/**
 * Sets `Error.stackTraceLimit` in the workflow sandbox to `worker.workflow_stack_trace_limit`. The
 * worker preloads this module unless that setting is null, with the value defined at bundle
 * time: preloaded modules run before the SDK freezes the sandbox's globals, after which no workflow
 * code can change the limit. Stacks decide no command, so histories replay the same with any limit.
 */
declare const DEERFLOW_WORKFLOW_STACK_TRACE_LIMIT: number;

Error.stackTraceLimit = DEERFLOW_WORKFLOW_STACK_TRACE_LIMIT;

export {};
