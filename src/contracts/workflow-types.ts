/**
 * Workflow type names as the worker registers them (the exported function names): what a plain
 * Temporal client passes to `workflow.start` and what visibility queries match on `WorkflowType`.
 */
export const WORKFLOW_TYPES = {
  leadRun: 'leadRunWorkflow',
  batch: 'batchWorkflow',
  batchItem: 'batchItemWorkflow',
} as const;
export type WorkflowType = (typeof WORKFLOW_TYPES)[keyof typeof WORKFLOW_TYPES];
