import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { batchWorkflowId } from '../client';
import { SA_USER_ID, type BatchRecord } from '../contracts';
import type { Caller } from './auth';
import { GatewayError } from './errors';
import type { GatewayDeps } from './gateway-deps';

/** A batch the caller may see. */
export interface FoundBatch {
  readonly batch: BatchRecord;
  /** Whose batch it is: every store read and the cancel are scoped to this owner. */
  readonly ownerId: string;
}

/** Path of a batch's resource. */
export function batchPath(batchId: string): string {
  return `/api/batches/${encodeURIComponent(batchId)}`;
}

/**
 * Finds a batch scoped to the caller: a scoped caller reads only their own batches. The unscoped
 * loopback operator sees every batch, as every run; the store reads by owner, so the owner comes
 * from the batch workflow's `DeerflowUserId` search attribute (the operator's own user when the
 * workflow is gone, e.g. past retention).
 * @throws GatewayError `not_found` when the batch is missing or another user's (indistinguishable).
 */
export async function findBatch(deps: Pick<GatewayDeps, 'temporal' | 'deerflow'>, batchId: string, caller: Caller): Promise<FoundBatch> {
  const ownerId = caller.scoped ? caller.userId : ((await recordedOwner(deps.temporal, batchId)) ?? caller.userId);
  const batch = await deps.deerflow.getBatch(batchId, ownerId);
  if (batch === null) throw GatewayError.batchNotFound(batchId);
  return { batch, ownerId };
}

async function recordedOwner(temporal: Client, batchId: string): Promise<string | null> {
  try {
    const description = await temporal.workflow.getHandle(batchWorkflowId(batchId)).describe();
    return description.typedSearchAttributes.get(SA_USER_ID) ?? null;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return null;
    throw err;
  }
}
