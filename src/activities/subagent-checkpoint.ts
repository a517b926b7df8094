import { AIMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import type { BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';
import { log } from '@temporalio/activity';
import { addUsage, type SubagentTaskInput, type TokenUsage } from '../contracts';
import { usageOfMessage } from './usage-from-messages';

/**
 * The checkpoint thread of one task: every attempt of the task shares it, nothing else does (the
 * run id is unique in its thread, the task id in its run; a batch's items are keyed by batch id).
 */
export function subagentCheckpointThread(input: Pick<SubagentTaskInput, 'threadId' | 'runId' | 'taskId'>): string {
  return `subagent:${input.threadId}:${input.runId}:${input.taskId}`;
}

/** Where an execution takes over an earlier attempt: its conversation at the last completed graph step. */
export interface ResumePoint {
  readonly messages: readonly BaseMessage[];
  /** LangGraph's step number of that checkpoint (the recursion limit counts on from it). */
  readonly graphStep: number;
  /** Assistant turns and tool results already in the conversation (they are not run again). */
  readonly steps: number;
  /** Usage of the model responses in the conversation (each counted once, by the attempt that made it). */
  readonly usage: TokenUsage | null;
}

/**
 * The latest checkpoint of `thread`, or null when there is none (the earlier attempt never
 * completed a step). A checkpoint is written when a graph node completes, so a model call or a tool
 * round that was running when the worker went away is not in it and runs again.
 */
export async function resumePoint(saver: BaseCheckpointSaver, thread: string): Promise<ResumePoint | null> {
  const saved = await saver.getTuple({ configurable: { thread_id: thread, checkpoint_ns: '' } });
  const messages = saved?.checkpoint.channel_values['messages'];
  if (saved === undefined || !Array.isArray(messages) || messages.length === 0) return null;
  const conversation = messages as BaseMessage[];
  const usage = conversation.reduce<TokenUsage | null>((sum, m) => (AIMessage.isInstance(m) ? addUsage(sum, usageOfMessage(m)) : sum), null);
  return {
    messages: conversation,
    graphStep: saved.metadata?.step ?? -1,
    steps: conversation.filter((m) => AIMessage.isInstance(m) || ToolMessage.isInstance(m)).length,
    usage,
  };
}

/**
 * The recursion limit that keeps a resumed execution inside the task's original `fullLimit`:
 * LangGraph counts a resumed invocation's steps from the checkpoint's step, so the steps already
 * taken are subtracted (a fresh invocation starts at step -1).
 */
export function resumedRecursionLimit(fullLimit: number, point: ResumePoint): number {
  return Math.max(1, fullLimit - (point.graphStep + 2));
}

/** Deletes a task's checkpoints once nothing can resume it; a failure only leaves rows behind. */
export async function dropCheckpoints(saver: BaseCheckpointSaver, thread: string): Promise<void> {
  try {
    await saver.deleteThread(thread);
  } catch (err) {
    log.warn('Deleting subagent checkpoints failed; they stay in the store', { thread, error: String(err) });
  }
}
