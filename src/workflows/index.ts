// The workflow bundle entry point: export workflow functions only.
export { leadRunWorkflow } from './lead-run-workflow';
export { batchWorkflow } from './batch-workflow';
export { batchItemWorkflow } from './batch-item-workflow';
