import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { BatchActivities, LeadActivities, SubagentActivities } from '../activities/activity-types';
import { CONFIGURATION_ERROR_TYPE } from '../contracts/failure-types';
import { SUBAGENT_TASK_QUEUE } from '../contracts/task-queues';

/** Lead-queue activities: model steps and bookkeeping, retried with backoff unless misconfigured. */
export const lead = proxyActivities<LeadActivities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '1 minute',
  retry: { maximumAttempts: 5, initialInterval: '1 second', backoffCoefficient: 2, nonRetryableErrorTypes: [CONFIGURATION_ERROR_TYPE] },
});

/** Batch and item bookkeeping (store writes); a store error that cannot heal is not retried. */
export const batchStore = proxyActivities<BatchActivities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 10, initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

/**
 * The same bookkeeping as local activities, for item workflows: they run inside the workflow task
 * on the workflow worker, so an item's admission, status writes and terminal write cost no extra
 * round trips through the server (an item is mostly bookkeeping around one `runSubagent`).
 */
export const itemBookkeeping = proxyLocalActivities<BatchActivities & Pick<LeadActivities, 'admitSubagents'>>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 10, initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

/** `runSubagent`; per-call options (timeouts, summary, id) are set where it is scheduled. */
export const subagents = proxyActivities<SubagentActivities>({
  taskQueue: SUBAGENT_TASK_QUEUE,
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '30 seconds',
  // Attempts are decided by workflow code from the outcome (see decideTaskOutcome), never blindly.
  retry: { maximumAttempts: 1 },
});
