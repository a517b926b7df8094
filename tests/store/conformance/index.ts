import { agentDefinitionStoreSpec } from './agent-definition-store.conformance';
import { assertImmutable } from './assert-immutable';
import { batchStoreSpec } from './batch-store.conformance';
import { checkpointsSpec } from './checkpoints.conformance';
import type { StoresInit } from './fixtures';
import { runEventStoreSpec } from './run-event-store.conformance';
import { taskProgressStoreSpec } from './task-progress-store.conformance';
import { taskResultStoreSpec } from './task-result-store.conformance';
import { threadMessageStoreSpec } from './thread-message-store.conformance';
import { threadOwnerStoreSpec } from './thread-owner-store.conformance';
import { threadSummaryStoreSpec } from './thread-summary-store.conformance';

export { assertImmutable } from './assert-immutable';
export { batchLeaseColumnSpec, batchLeaseSharingSpec } from './batch-item-leases.conformance';
export type { LeaseColumnInit } from './batch-item-leases.conformance';
export { persistenceSpec } from './persistence.conformance';
export { threadOwnerSharingSpec } from './thread-owner-store.conformance';
export type { StoresLocation } from './persistence.conformance';
export type { StoresInit } from './fixtures';

/**
 * The one conformance suite every store backend passes (STYLE §b.11). `init` must return fresh,
 * empty stores on every call; each test runs them through {@link assertImmutable}.
 */
export function storeConformanceSpec(init: StoresInit): void {
  const immutable: StoresInit = async () => assertImmutable(await init());
  threadMessageStoreSpec(immutable);
  threadSummaryStoreSpec(immutable);
  runEventStoreSpec(immutable);
  taskResultStoreSpec(immutable);
  taskProgressStoreSpec(immutable);
  agentDefinitionStoreSpec(immutable);
  batchStoreSpec(immutable);
  threadOwnerStoreSpec(immutable);
  checkpointsSpec(init);
}
