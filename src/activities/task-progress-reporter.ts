import { Context, log } from '@temporalio/activity';
import type { BaseMessage } from '@langchain/core/messages';
import { createMiddleware, type AgentMiddleware } from 'langchain';
import type { SubagentProgress, SubagentTaskInput } from '../contracts';
import { taskProgressSignal } from '../workflows/lead-run-messages';

/** Name the middleware of {@link TaskProgressReporter.flushBeforeCalls} registers under. */
export const TASK_PROGRESS_MIDDLEWARE_NAME = 'TaskProgressMiddleware';

/**
 * Publishes a running subagent execution's progress to its lead run (signal `taskProgress`) before
 * the execution waits on a model or a tool call, when the usage or the evidence changed since the
 * last signal. The run needs the signal because a
 * cancelled activity's failure never reaches it (the run stops waiting at once) and Temporal's
 * own timeouts carry only a throttled heartbeat; the run keeps the latest report on the task. A
 * cancellation or a timeout can only end the execution while it waits, so what it spent is known
 * to the run by then; what its last response spent comes with its result instead, which spares a
 * one-turn task the signal (and the run ~one history event per task: a response of 50 tasks sent
 * as many signals as completions, enough buffered events for the server to force-fail the run's
 * workflow task). Best effort: a failed report never fails the task. Batch items run under item
 * workflows, which take no reports.
 */
export class TaskProgressReporter {
  readonly #ctx = Context.current();
  #latest: SubagentProgress | null = null;
  #sent: string | null = null;

  constructor(private readonly input: SubagentTaskInput) {}

  /** Keeps `progress` for the run, which hears of it at the next {@link flush}. Heartbeats carry it through `withHeartbeats`' details. */
  publish(progress: SubagentProgress): void {
    this.#latest = progress;
  }

  /** Signals the latest progress to the run unless its usage and evidence were signalled already. */
  async flush(): Promise<void> {
    const progress = this.#latest;
    const workflowId = this.#ctx.info.workflowExecution?.workflowId;
    if (progress === null || this.input.kind !== 'task' || workflowId === undefined) return;
    const key = JSON.stringify([progress.usage, progress.evidence]);
    if (key === this.#sent) return;
    this.#sent = key;
    const { taskId, attempt } = this.input;
    try {
      await this.#ctx.client.workflow.getHandle(workflowId).signal(taskProgressSignal, { taskId, attempt, progress });
    } catch (err) {
      log.warn('Reporting task progress to the run failed', { taskId, error: String(err) });
    }
  }

  /**
   * Middleware that flushes before every model and tool call of the agent (wrap hooks: no graph
   * step). Before a model call, `beforeModelCall` first sees the conversation as the call gets it:
   * the graph runs ahead of the stream that reports its steps, so a tool round's receipts may not
   * have been published yet.
   */
  flushBeforeCalls(beforeModelCall?: (messages: readonly BaseMessage[]) => void): AgentMiddleware {
    return createMiddleware({
      name: TASK_PROGRESS_MIDDLEWARE_NAME,
      wrapModelCall: async (request, handler) => {
        beforeModelCall?.(request.state.messages);
        await this.flush();
        return handler(request);
      },
      wrapToolCall: async (request, handler) => {
        await this.flush();
        return handler(request);
      },
    });
  }
}
