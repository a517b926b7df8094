import type { ActivityDeps } from './activity-deps';
import type { BatchActivities, BatchItemActivities, LeadActivities, SubagentActivities } from './activity-types';
import { createAdmitSubagents } from './admit-subagents';
import { createBatchActivities } from './batch-items';
import { createLeadModelStep, createLeadModelStepWithOutcomes } from './lead-model-step';
import { createPrepareLeadBatch } from './prepare-lead-batch';
import { createRecordTaskEnd } from './record-task-end';
import { createRewriteLeadTurn } from './rewrite-lead-turn';
import { createCloseToolCalls } from './close-tool-calls';
import { createRecordToolOutcome } from './record-tool-outcome';
import { createRunLeadTool } from './run-lead-tool';
import { createRecordClarification } from './record-clarification';
import { createRunSubagent, createSubagentExecutor } from './run-subagent';
import { createRunBatchItem } from './run-batch-item';
import { BatchLeaseWaiters } from './batch-lease-waiters';
import { createItemEndWriter } from './batch-item-end';

/** Activities of the `deerflow` task queue. */
export function createLeadActivities(deps: ActivityDeps): LeadActivities & BatchActivities {
  return {
    ...createBatchActivities(deps),
    leadModelStep: createLeadModelStep(deps),
    leadModelStepWithOutcomes: createLeadModelStepWithOutcomes(deps),
    admitSubagents: createAdmitSubagents(deps),
    rewriteLeadTurn: createRewriteLeadTurn(deps),
    prepareLeadBatch: createPrepareLeadBatch(deps),
    recordTaskEnd: createRecordTaskEnd(deps),
    recordToolOutcome: createRecordToolOutcome(deps),
    closeToolCalls: createCloseToolCalls(deps),
    runLeadTool: createRunLeadTool(deps),
    recordClarification: createRecordClarification(deps),
  };
}

/** Activities of the `deerflow-subagents` task queue. */
export function createSubagentActivities(deps: ActivityDeps): SubagentActivities {
  return { runSubagent: createRunSubagent(deps) };
}

/** Activities of the `deerflow-batch-items` task queue; one worker's tries share their lease waits. */
export function createBatchItemActivities(deps: ActivityDeps): BatchItemActivities {
  return { runBatchItem: createRunBatchItem(deps.stores.batches, createSubagentExecutor(deps), createItemEndWriter(deps), new BatchLeaseWaiters()) };
}

export type { ActivityDeps } from './activity-deps';
export { HEARTBEAT_INTERVAL_MS } from './heartbeat';
export type { BatchActivities, BatchItemActivities, LeadActivities, SubagentActivities } from './activity-types';
