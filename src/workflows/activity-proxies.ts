import { ActivityCancellationType, proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { BatchActivities, BatchItemActivities, LeadActivities, SubagentActivities } from '../activities/activity-types';
import { CONFIGURATION_ERROR_TYPE } from '../contracts/failure-types';
import { BATCH_ITEM_TASK_QUEUE, SUBAGENT_TASK_QUEUE } from '../contracts/task-queues';

/**
 * What every activity call does on cancellation, pinned: its promise rejects as soon as the
 * cancellation is requested, and the activity learns of it through its next heartbeat. The SDK
 * documents `WAIT_CANCELLATION_COMPLETED` as the default but sends an unset value, which core reads
 * as `TRY_CANCEL` (temporalio/sdk-typescript#2442); the histories we record were made
 * that way, so an SDK that starts sending its documented default must not change them (nine of the
 * recorded cancel fixtures stop replaying with `WAIT_CANCELLATION_COMPLETED`). The step
 * events a cancelled execution writes after its task's end are fenced by the store.
 */
const CANCELLATION = { cancellationType: ActivityCancellationType.TRY_CANCEL } as const;

/** Retries of the lead's model steps and tools, as activities or local activities. */
const LEAD_RETRY = { maximumAttempts: 10, initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', nonRetryableErrorTypes: [CONFIGURATION_ERROR_TYPE] };

/**
 * Lead-queue activities (model steps, lead tools), retried with capped backoff unless misconfigured:
 * provider errors are handled inside the step, so what fails here is infrastructure (a store
 * restarting), which ten attempts over about two and a half minutes ride out.
 */
export const lead = proxyActivities<LeadActivities>({
  ...CANCELLATION,
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '1 minute',
  retry: LEAD_RETRY,
});

/**
 * `leadModelStep` as a local activity, for runs with `lead_runs.model_steps: local` (patch
 * `lead-local-model-steps`): the step runs inside the workflow task on the lead worker, so a lead
 * turn needs no workflow task and activity dispatch of its own. Same timeout and retries as
 * {@link lead}; no heartbeat: a lost worker is noticed by the workflow task timeout, and the worker
 * that takes the task over runs the step again (which returns the message a first try stored).
 */
export const localLead = proxyLocalActivities<Pick<LeadActivities, 'leadModelStep' | 'leadModelStepWithOutcomes'>>({
  ...CANCELLATION,
  startToCloseTimeout: '10 minutes',
  retry: LEAD_RETRY,
});

/**
 * The run's bookkeeping (terminal events, tool messages, closing calls, admission, batch
 * preparation, clarification records): idempotent writes under keys the workflow chose, so they are
 * retried until they succeed (backoff capped at 30 s). A store outage delays a run; it never fails
 * it or leaves a task without its `subagent.end`.
 */
export const bookkeeping = proxyActivities<LeadActivities>({
  ...CANCELLATION,
  // Room for storing a large batch in one transaction (prepareLeadBatch).
  startToCloseTimeout: '5 minutes',
  // No maximumAttempts: retried until it succeeds.
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '30 seconds', nonRetryableErrorTypes: [CONFIGURATION_ERROR_TYPE] },
});

/**
 * The run's per-response bookkeeping (admission, tool outcomes) as local activities, for runs
 * started after patch `batched-task-bookkeeping`: they run inside the workflow task on the lead
 * worker, so a response's admission and a burst's outcome write cost no extra workflow task each.
 * Retried like {@link bookkeeping}; a long store outage makes the SDK wait with a timer between tries.
 */
export const localBookkeeping = proxyLocalActivities<Pick<LeadActivities, 'admitSubagents' | 'recordToolOutcome'>>({
  ...CANCELLATION,
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '30 seconds', nonRetryableErrorTypes: [CONFIGURATION_ERROR_TYPE] },
});

/** Batch and item bookkeeping (store writes); a store error that cannot heal is not retried. */
export const batchStore = proxyActivities<BatchActivities>({
  ...CANCELLATION,
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 10, initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

/**
 * The same bookkeeping as local activities, for item workflows: they run inside the workflow task
 * on the workflow worker, so an item's admission, status writes and terminal write cost no extra
 * round trips through the server (an item is mostly bookkeeping around one `runSubagent`).
 */
export const itemBookkeeping = proxyLocalActivities<BatchActivities & Pick<LeadActivities, 'admitSubagents'>>({
  ...CANCELLATION,
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 10, initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

/** `runSubagent`; per-call options (timeouts, summary, id) are set where it is scheduled. */
export const subagents = proxyActivities<SubagentActivities>({
  ...CANCELLATION,
  taskQueue: SUBAGENT_TASK_QUEUE,
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '30 seconds',
  // Attempts are decided by workflow code from the outcome (see decideTaskOutcome), never blindly.
  retry: { maximumAttempts: 1 },
});

/** `runBatchItem`: a batch item's leased try; per-call options are set where it is scheduled. */
export const batchItems = proxyActivities<BatchItemActivities>({
  ...CANCELLATION,
  taskQueue: BATCH_ITEM_TASK_QUEUE,
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '30 seconds',
  // Like runSubagent: the item workflow decides on another attempt from the outcome.
  retry: { maximumAttempts: 1 },
});
