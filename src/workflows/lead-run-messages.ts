import { defineQuery } from '@temporalio/workflow';
import type { LeadRunState } from '../contracts';

/** Live state of a lead run: tasks, statuses, stop reasons, usage. */
export const leadRunStateQuery = defineQuery<LeadRunState>('state');

/** Workflow id of a lead run; child workflow ids derive from it. */
export function leadRunWorkflowId(threadId: string, runId: string): string {
  return `lead-run:${threadId}:${runId}`;
}
