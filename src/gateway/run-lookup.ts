import { WorkflowNotFoundError, type Client, type WorkflowExecutionStatusName, type WorkflowHandle } from '@temporalio/client';
import { leadRunWorkflowId } from '../client';
import { SA_USER_ID, WORKFLOW_TYPES } from '../contracts';
import type { Caller } from './auth';
import { GatewayError } from './errors';


/** A run the caller may see. */
export interface FoundRun {
  readonly threadId: string;
  readonly runId: string;
  readonly workflowId: string;
  readonly handle: WorkflowHandle;
  /** Temporal status when looked up (`RUNNING` while the run is live). */
  readonly status: WorkflowExecutionStatusName;
  /** The user who started it (search attribute `DeerflowUserId`), when recorded. */
  readonly userId: string | null;
}

/**
 * Finds a run by its thread and run id, scoped to the caller. The workflow id is derived from the
 * two ids (no index to keep in sync), and the owner is the `DeerflowUserId` search attribute the
 * client sets at start, so the check needs nothing but Temporal.
 * @throws GatewayError `not_found` when the run does not exist, is not a lead run, or belongs to
 *   another user (indistinguishable on purpose).
 */
export async function findRun(temporal: Client, threadId: string, runId: string, caller: Caller): Promise<FoundRun> {
  const workflowId = leadRunWorkflowId(threadId, runId);
  const handle = temporal.workflow.getHandle(workflowId);
  let description;
  try {
    description = await handle.describe();
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) throw GatewayError.runNotFound(threadId, runId);
    throw err;
  }
  const userId = description.typedSearchAttributes.get(SA_USER_ID) ?? null;
  if (description.type !== WORKFLOW_TYPES.leadRun || (caller.scoped && userId !== caller.userId)) {
    throw GatewayError.runNotFound(threadId, runId);
  }
  return { threadId, runId, workflowId, handle, status: description.status.name, userId };
}

/** Whether a run's workflow is still open. */
export async function isRunOpen(handle: WorkflowHandle): Promise<boolean> {
  return (await handle.describe()).status.name === 'RUNNING';
}
