import type { LeadRunState, TaskState } from '../contracts';

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

/** A task of the run before its first execution (pure). */
export function newTaskState(taskId: string, turn: number, subagent: string, description: string): TaskState {
  return {
    taskId,
    turn,
    subagent,
    description,
    status: 'pending',
    stopReason: null,
    modelName: null,
    usage: null,
    resultBrief: null,
    resultSha256: null,
    resultRef: null,
    error: null,
    errorCode: null,
    attempts: 0,
    evidence: null,
    extendedSeconds: 0,
  };
}
