export { DeerFlowClient, BatchNotFoundError, RunNotWaitingError, TaskNotCancellableError, TaskNotExtendableError } from './deerflow-client';
export { streamRunEvents } from './stream-run-events';
export type { StreamRunEventsOptions } from './stream-run-events';
export type { StartedRun, StartRunRequest, StartedBatch, StartBatchRequest, DeerFlowClientStores, DeerFlowClientOptions } from './deerflow-client';
export { buildBatch, BatchRequestSchema, BatchRequestItemSchema } from '../registry';
export type { BatchRequest, BuiltBatch } from '../registry';
export {
  buildLeadRunInput,
  RunRequestSchema,
  DEFAULT_AGENT_NAME,
  DEFAULT_MAX_TASK_ATTEMPTS,
  MAX_CONCURRENT_CEILING,
} from './build-run-input';
export type { RunRequest } from './build-run-input';
export { leadRunStartOptions, batchStartOptions } from './start-options';
export { temporalConnectionOptions } from '../config';
export type { TemporalConnectionOptions } from '../config';
export type { LeadRunStartOptions, BatchStartOptions } from './start-options';
// Workflow ids and messages, for callers that hold a plain Temporal client.
export { leadRunWorkflowId, leadRunStateQuery } from '../workflows/lead-run-messages';
export { batchWorkflowId, batchItemWorkflowId, batchStateQuery } from '../workflows/batch-messages';
