import { mapStoredMessageToChatMessage } from '@langchain/core/messages';
import {
  messageText,
  RunJsonOutputSchema,
  type LeadRunState,
  type LeadToolState,
  type RunJsonLeadTool,
  type RunJsonOutput,
  type RunJsonTask,
  type TaskState,
} from '../contracts';
import type { Stores } from '../store';

const EVENT_PAGE_SIZE = 500;

/** Counts a run's stored events by name, paging through all of them. */
export async function countRunEvents(stores: Stores, runId: string, threadId?: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  let afterSeq = 0;
  for (;;) {
    const page = await stores.events.listEvents({ runId, afterSeq, limit: EVENT_PAGE_SIZE, ...(threadId === undefined ? {} : { threadId }) });
    for (const event of page) counts[event.event] = (counts[event.event] ?? 0) + 1;
    const last = page[page.length - 1];
    if (last === undefined || page.length < EVENT_PAGE_SIZE) return counts;
    afterSeq = last.seq;
  }
}

async function finalMessage(stores: Stores, state: LeadRunState): Promise<string | null> {
  // A run that ended waiting for an answer has its question as its final message, and no stored one.
  if (state.finalMessageRef === null) return state.finalMessageBrief;
  const stored = await stores.messages.getMessage(state.threadId, state.finalMessageRef);
  return stored ? messageText(mapStoredMessageToChatMessage(stored).content) : state.finalMessageBrief;
}

async function taskReport(stores: Stores, task: TaskState): Promise<RunJsonTask | null> {
  if (task.status === 'pending' || task.status === 'running') return null;
  const result = task.resultRef ? ((await stores.results.getResult(task.resultRef)) ?? task.resultBrief) : null;
  return {
    task_id: task.taskId,
    subagent: task.subagent,
    description: task.description,
    status: task.status,
    stop_reason: task.stopReason,
    model: task.modelName,
    token_usage: task.usage,
    result,
    error: task.error,
    attempts: task.attempts,
    resumed_steps: task.resumedSteps ?? 0,
  };
}

/** A lead tool call in the report; one still `running` when the run ended was cut off by it. */
function leadToolReport(call: LeadToolState): RunJsonLeadTool {
  return { call_id: call.callId, tool: call.tool, status: call.status === 'running' ? 'cancelled' : call.status, error: call.error };
}

/**
 * The `deerflow run --json` object for a finished run: workflow state plus the full texts and
 * event counts from the store. Validated against the contract schema before it is printed.
 */
export async function buildRunReport(stores: Stores, state: LeadRunState, workflowId: string): Promise<RunJsonOutput> {
  const status = state.status === 'running' ? 'failed' : state.status;
  const tasks = (await Promise.all(state.tasks.map((t) => taskReport(stores, t)))).flatMap((t) => (t ? [t] : []));
  return RunJsonOutputSchema.parse({
    run_id: state.runId,
    thread_id: state.threadId,
    workflow_id: workflowId,
    status,
    stop_reason: state.stopReason,
    final_message: await finalMessage(stores, state),
    tasks,
    lead_tools: state.leadTools.map(leadToolReport),
    stripped_task_calls: state.strippedTaskCalls,
    events: await countRunEvents(stores, state.runId, state.threadId),
  });
}
