import type { Client } from '@temporalio/client';
import { SA_BATCH_ID, SA_THREAD_ID, SA_USER_ID } from '../contracts';
import type { Caller } from './auth';
import { GatewayError, GatewayErrorCode } from './errors';
import { LEAD_RUN_WORKFLOW_TYPE } from './run-lookup';

/** Workflow type of a batch; its items work in the thread named by the batch id. */
const BATCH_WORKFLOW_TYPE = 'batchWorkflow';

// Thread ids, batch ids and configured user ids are restricted to letters, digits and `_ . @ -`,
// so each is safe inside a quoted literal of a visibility query.

/** Workflows that work in thread `threadId`: its lead runs, and the batch whose id it is. */
function threadUsers(threadId: string): string {
  return (
    `((WorkflowType = '${LEAD_RUN_WORKFLOW_TYPE}' AND ${SA_THREAD_ID.name} = '${threadId}')` +
    ` OR (WorkflowType = '${BATCH_WORKFLOW_TYPE}' AND ${SA_BATCH_ID.name} = '${threadId}'))`
  );
}

/** Whether a user other than the (scoped) caller has run or batched in thread `threadId`. */
async function usedByOthers(temporal: Client, threadId: string, caller: Caller): Promise<boolean> {
  if (!caller.scoped) return false;
  const others = await temporal.workflow.count(`${threadUsers(threadId)} AND ${SA_USER_ID.name} != '${caller.userId}'`);
  return others.count > 0;
}

/**
 * Refuses to start a run in a thread that another user's runs or batch used (its transcript and
 * workspace are theirs: 404, as for their runs) or that has a run in progress (409: two runs
 * appending to one transcript would interleave). Uses Temporal visibility, which lags starts by a
 * moment, so two requests racing on one new thread id are not both caught; server-made thread ids
 * never race.
 * @throws GatewayError `not_found` or `conflict`.
 */
export async function assertThreadAvailable(temporal: Client, threadId: string, caller: Caller): Promise<void> {
  if (await usedByOthers(temporal, threadId, caller)) throw new GatewayError(GatewayErrorCode.NotFound, `thread "${threadId}" not found`);
  const running = await temporal.workflow.count(
    `WorkflowType = '${LEAD_RUN_WORKFLOW_TYPE}' AND ${SA_THREAD_ID.name} = '${threadId}' AND ExecutionStatus = 'Running'`,
  );
  if (running.count > 0) {
    throw new GatewayError(GatewayErrorCode.Conflict, `thread "${threadId}" has a run in progress; wait for it or cancel it`);
  }
}

/**
 * Refuses a caller-chosen batch id that names another user's thread: the batch's items would work
 * in that thread's workspace. Best-effort like {@link assertThreadAvailable} (visibility lags).
 * @throws GatewayError `conflict` ({@link GatewayError.batchIdInUse}).
 */
export async function assertBatchIdAvailable(temporal: Client, batchId: string, caller: Caller): Promise<void> {
  if (await usedByOthers(temporal, batchId, caller)) throw GatewayError.batchIdInUse(batchId);
}
