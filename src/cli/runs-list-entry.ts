import type { WorkflowExecutionInfo } from '@temporalio/client';
import { SA_AGENT, SA_RUN_STATUS, SA_THREAD_ID, SA_USER_ID, type RunsListEntry } from '../contracts';

const LEAD_RUN_ID_PREFIX = 'lead-run:';

/**
 * The run id inside a lead run's workflow id (`lead-run:<thread>:<run>`; thread ids hold no `:`),
 * or null for an id a starter chose otherwise.
 */
function runIdOf(workflowId: string): string | null {
  if (!workflowId.startsWith(LEAD_RUN_ID_PREFIX)) return null;
  const rest = workflowId.slice(LEAD_RUN_ID_PREFIX.length);
  const colon = rest.indexOf(':');
  return colon > 0 && colon < rest.length - 1 ? rest.slice(colon + 1) : null;
}

/** One row of `deerflow runs list` from what visibility returns for a lead run. */
export function runsListEntry(execution: WorkflowExecutionInfo): RunsListEntry {
  const attributes = execution.typedSearchAttributes;
  return {
    workflow_id: execution.workflowId,
    thread_id: attributes.get(SA_THREAD_ID) ?? null,
    run_id: runIdOf(execution.workflowId),
    user_id: attributes.get(SA_USER_ID) ?? null,
    agent: attributes.get(SA_AGENT) ?? null,
    status: attributes.get(SA_RUN_STATUS) ?? null,
    execution_status: execution.status.name,
    started_at: execution.startTime.toISOString(),
    closed_at: execution.closeTime?.toISOString() ?? null,
  };
}

/** The row as one line of text: status, thread, run, user, agent, start time. */
export function runsListLine(entry: RunsListEntry): string {
  const status = entry.status ?? entry.execution_status.toLowerCase();
  return [
    status.padEnd(18),
    `thread=${entry.thread_id ?? '-'}`,
    `run=${entry.run_id ?? entry.workflow_id}`,
    `user=${entry.user_id ?? '-'}`,
    `agent=${entry.agent ?? '-'}`,
    `started=${entry.started_at}`,
  ].join('  ');
}
