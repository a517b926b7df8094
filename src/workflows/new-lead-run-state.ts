import type { LeadRunState } from '../contracts';

/** A lead run's state before its first turn (pure). */
export function newLeadRunState(runId: string, threadId: string): LeadRunState {
  return {
    runId,
    threadId,
    status: 'running',
    turn: 0,
    tasks: [],
    batches: [],
    leadTools: [],
    question: null,
    promotedTools: [],
    strippedTaskCalls: 0,
    delegatedTaskCalls: 0,
    stopReason: null,
    leadUsage: null,
    finalMessageRef: null,
    finalMessageBrief: null,
    error: null,
  };
}
