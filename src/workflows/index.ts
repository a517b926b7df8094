// The workflow bundle entry point: export workflow functions only.
export { leadRunWorkflow } from './lead-run-workflow';
