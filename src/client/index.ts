export { DeerFlowClient } from './deerflow-client';
export { streamRunEvents } from './stream-run-events';
export type { StreamRunEventsOptions } from './stream-run-events';
export type { StartedRun, StartRunRequest } from './deerflow-client';
export {
  buildLeadRunInput,
  RunRequestSchema,
  DEFAULT_AGENT_NAME,
  DEFAULT_MAX_TASK_ATTEMPTS,
  MAX_CONCURRENT_CEILING,
} from './build-run-input';
export type { RunRequest } from './build-run-input';
