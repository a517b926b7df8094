import type { WorkflowStartOptions } from '@temporalio/client';
import { boundText } from '../contracts/bounded-text';
import { batchSearchAttributes, leadRunSearchAttributes } from '../contracts/identity-search-attributes';
import type { BatchWorkflowInput, LeadRunInput } from '../contracts';
import { WORKFLOW_TASK_QUEUE } from '../contracts/task-queues';
import type { batchWorkflow } from '../workflows/batch-workflow';
import { batchWorkflowId } from '../workflows/batch-messages';
import type { leadRunWorkflow } from '../workflows/lead-run-workflow';
import { leadRunWorkflowId } from '../workflows/lead-run-messages';

/** Options that start `leadRunWorkflow` with any `@temporalio/client` `Client`. */
export type LeadRunStartOptions = WorkflowStartOptions<typeof leadRunWorkflow>;
/** Options that start `batchWorkflow` with any `@temporalio/client` `Client`. */
export type BatchStartOptions = WorkflowStartOptions<typeof batchWorkflow>;

/**
 * How a lead run is started: task queue `deerflow`, workflow id `lead-run:<thread>:<run>`, the
 * input as the only argument, a Temporal Web summary and the search attributes that find it by
 * thread, user and agent. With a plain Temporal client:
 *
 * ```ts
 * const input = buildLeadRunInput(config, { message, threadId, runId, userId });
 * await client.workflow.start(WORKFLOW_TYPES.leadRun, leadRunStartOptions(input));
 * ```
 */
export function leadRunStartOptions(input: LeadRunInput): LeadRunStartOptions {
  return {
    taskQueue: WORKFLOW_TASK_QUEUE,
    workflowId: leadRunWorkflowId(input.threadId, input.runId),
    args: [input],
    staticSummary: boundText(`${input.agentName} for ${input.userId}: ${input.message.replace(/\s+/g, ' ')}`, 200),
    typedSearchAttributes: leadRunSearchAttributes(input),
  };
}

/**
 * How a batch is started: workflow id `batch:<batch id>`, never twice for one batch id
 * (`REJECT_DUPLICATE`). The batch's rows must be in the BatchStore first (the workflow reads its
 * items from there, not from its input):
 *
 * ```ts
 * const built = buildBatch(config, resolveCatalog(config, null), request);
 * await stores.batches.createBatch(built.create, { maxItems: built.maxItems });
 * await client.workflow.start(WORKFLOW_TYPES.batch, batchStartOptions(built.workflow));
 * ```
 */
export function batchStartOptions(input: BatchWorkflowInput): BatchStartOptions {
  return {
    taskQueue: WORKFLOW_TASK_QUEUE,
    workflowId: batchWorkflowId(input.runtime.batchId),
    // A batch runs once: a repeated start of a finished batch must not start it again.
    workflowIdReusePolicy: 'REJECT_DUPLICATE',
    args: [input],
    staticSummary: boundText(`batch of ${input.itemCount} for ${input.runtime.ownerId}: ${input.title}`, 200),
    typedSearchAttributes: batchSearchAttributes(input),
  };
}
