import type { preHandlerAsyncHookHandler } from 'fastify';
import { SA_BATCH_ID, SA_THREAD_ID, SA_USER_ID, WORKFLOW_TYPES } from '../contracts';
import { isThreadOwnerError, ThreadOwnerErrorCode } from '../store';
import type { Caller } from './auth';
import { GatewayError, GatewayErrorCode } from './errors';
import type { GatewayDeps } from './gateway-deps';
import { callerOf } from './request-caller';
import { RunParamsSchema } from './validation';

/** What the thread checks read: the stored owners (through the client) and Temporal visibility. */
type ThreadAccessDeps = Pick<GatewayDeps, 'temporal'> & { readonly deerflow: Pick<GatewayDeps['deerflow'], 'threadOwner'> };

/** The 404 of a thread the caller may not use: it names nothing about the owner or the runs. */
const threadNotFound = (threadId: string): GatewayError => new GatewayError(GatewayErrorCode.NotFound, `thread "${threadId}" not found`);


// Thread ids, batch ids and configured user ids are restricted to letters, digits and `_ . @ -`,
// so each is safe inside a quoted literal of a visibility query.

/** Workflows that work in thread `threadId`: its lead runs, and the batch whose id it is. */
function threadUsers(threadId: string): string {
  return (
    `((WorkflowType = '${WORKFLOW_TYPES.leadRun}' AND ${SA_THREAD_ID.name} = '${threadId}')` +
    ` OR (WorkflowType = '${WORKFLOW_TYPES.batch}' AND ${SA_BATCH_ID.name} = '${threadId}'))`
  );
}

/**
 * Whether thread `threadId` belongs to a user other than the scoped `caller`. The stored owner
 * decides. A thread without a row was used before the threads table existed (or never): for it,
 * and only until its next start records a claim, Temporal visibility says whether another user's
 * runs or batch used it, so upgrading does not open old threads to others. Visibility lags starts
 * and forgets after retention, which is why it is only this one-time fallback.
 */
async function ownedByAnother(deps: ThreadAccessDeps, threadId: string, caller: Caller): Promise<boolean> {
  const owner = await deps.deerflow.threadOwner(threadId);
  if (owner !== null) return owner.ownerId !== caller.userId;
  const others = await deps.temporal.workflow.count(`${threadUsers(threadId)} AND ${SA_USER_ID.name} != '${caller.userId}'`);
  return others.count > 0;
}

/**
 * Refuses to start a run in a thread that belongs to another user (its transcript and workspace are
 * theirs: 404, as for their runs) or that has a run in progress (409: two runs appending to one
 * transcript would interleave). Ownership is checked first, so the 409 reveals nothing about another
 * user's thread. The unscoped operator is not refused here: `startRun` claims the thread for the user
 * it acts as, and a thread of another user is refused there ({@link threadClaimError}). The 409 uses
 * Temporal visibility, which lags starts by a moment; the ownership claim itself is atomic.
 * @throws GatewayError `not_found` or `conflict`.
 */
export async function assertThreadAvailable(deps: ThreadAccessDeps, threadId: string, caller: Caller): Promise<void> {
  if (caller.scoped && (await ownedByAnother(deps, threadId, caller))) throw threadNotFound(threadId);
  const running = await deps.temporal.workflow.count(
    `WorkflowType = '${WORKFLOW_TYPES.leadRun}' AND ${SA_THREAD_ID.name} = '${threadId}' AND ExecutionStatus = 'Running'`,
  );
  if (running.count > 0) {
    // That run may have claimed the thread for another user since the first check (it claims
    // before it starts): the thread is then theirs, a 404 like any other user's thread.
    if (caller.scoped && (await ownedByAnother(deps, threadId, caller))) throw threadNotFound(threadId);
    throw new GatewayError(GatewayErrorCode.Conflict, `thread "${threadId}" has a run in progress; wait for it or cancel it`);
  }
}

/**
 * Refuses a caller-chosen batch id that names another user's thread: the batch's items would work
 * in that thread's workspace. `startBatch` claims the id atomically afterwards.
 * @throws GatewayError `conflict` ({@link GatewayError.batchIdInUse}).
 */
export async function assertBatchIdAvailable(deps: ThreadAccessDeps, batchId: string, caller: Caller): Promise<void> {
  if (caller.scoped && (await ownedByAnother(deps, batchId, caller))) throw GatewayError.batchIdInUse(batchId);
}

// The client's claim names its inputs in camelCase; callers sent the snake_case ones.
const CLAIM_FIELDS: Readonly<Record<string, string>> = { ownerId: 'user_id', threadId: 'thread_id' };

/**
 * The answer to a thread claim `startRun`/`startBatch` refused, or null for any other error.
 * Another user's thread is a 404 to a scoped caller (as if it did not exist) and a 409 naming the
 * owner to the unscoped operator, who sees every thread anyway; a batch id is always the 409 of a
 * taken id. A claim input the contract refuses is a 400 naming the field.
 * @param batch - whether the claim was for a batch (its id is the thread)
 */
export function threadClaimError(err: unknown, caller: Caller, batch: boolean): GatewayError | null {
  if (!isThreadOwnerError(err)) return null;
  const threadId = err.threadId ?? '';
  if (err.code === ThreadOwnerErrorCode.Invalid) {
    const [, field = 'body', problem = err.message] = /^(\w+): ([\s\S]*)$/.exec(err.issues[0] ?? '') ?? [];
    return GatewayError.badRequest(field === 'threadId' && batch ? 'batch_id' : (CLAIM_FIELDS[field] ?? field), problem);
  }
  if (batch) return GatewayError.batchIdInUse(threadId);
  return caller.scoped ? threadNotFound(threadId) : new GatewayError(GatewayErrorCode.Conflict, err.message);
}

// Loose on purpose: a route's own schema reports bad parameters (400); this only needs the ids.
const ThreadRouteParamsSchema = RunParamsSchema.pick({ threadId: true, runId: true }).loose();

/**
 * `preHandler` of every route under `/api/threads/:threadId/`: a scoped caller asking about a thread
 * another user owns gets exactly the 404 of a missing run, whatever run, task or body the request
 * names, so neither runs nor their ids can be probed in it. One check for every such route, present
 * and future (runs, cancel, answer, tasks, events, stream), before any of them talks to Temporal.
 * A thread without a stored owner is left to the route, whose run lookup checks the run's own user.
 * The unscoped operator sees every thread.
 */
export function threadOwnerHook(deps: Pick<ThreadAccessDeps, 'deerflow'>): preHandlerAsyncHookHandler {
  return async (request) => {
    if (request.routeOptions.url?.startsWith('/api/threads/:threadId/') !== true) return;
    const caller = callerOf(request);
    if (!caller.scoped) return;
    const params = ThreadRouteParamsSchema.safeParse(request.params);
    if (!params.success) return;
    const owner = await deps.deerflow.threadOwner(params.data.threadId);
    if (owner !== null && owner.ownerId !== caller.userId) throw GatewayError.runNotFound(params.data.threadId, params.data.runId);
  };
}
