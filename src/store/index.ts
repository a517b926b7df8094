export { openConfiguredStores, openStores } from './stores';
export type { Stores, OpenStoresOptions } from './stores';
export type { SqliteSynchronous } from './sqlite/open-sqlite-database';
export { messageKeys } from './thread-message-store';
export type { ThreadMessageRecord, ThreadMessageStore } from './thread-message-store';
export type { ThreadSummaryRecord, ThreadSummaryStore } from './thread-summary-store';
export { DEFAULT_LIST_EVENTS_LIMIT } from './run-event-store';
export type { NewRunEvent, ListEventsQuery, RunEventStore } from './run-event-store';
export { taskResultRef } from './task-result-store';
export type { TaskResultStore } from './task-result-store';
export type { StoredTaskProgress, TaskProgressKey, TaskProgressStore } from './task-progress-store';
export type { AgentDefinitionStore } from './agent-definition-store';
export { AgentDefinitionError, AgentDefinitionErrorCode, isAgentDefinitionError } from './errors';
export type { AgentDefinitionKind } from './errors';
export type {
  BatchStore,
  CreateBatchOptions,
  CreateBatchOutcome,
  ItemWriteOutcome,
  ItemLeaseOutcome,
  CancelBatchOutcome,
  FinishBatchOutcome,
} from './batch-store';
export { BatchStoreError, BatchStoreErrorCode, isBatchStoreError } from './errors';
export { claimThread } from './thread-owner-store';
export type { ThreadOwnerStore } from './thread-owner-store';
export { ThreadOwnerError, ThreadOwnerErrorCode, isThreadOwnerError } from './errors';
