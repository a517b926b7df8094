import { Context, log } from '@temporalio/activity';
import type { BaseMessage } from '@langchain/core/messages';
import { createMiddleware, type AgentMiddleware } from 'langchain';
import type { SubagentProgress, SubagentTaskInput, TaskProgressReport } from '../contracts';
import type { TaskProgressStore } from '../store';
import { taskProgressSignal } from '../workflows/lead-run-messages';

/** Name the middleware of {@link TaskProgressReporter.flushBeforeCalls} registers under. */
export const TASK_PROGRESS_MIDDLEWARE_NAME = 'TaskProgressMiddleware';

/** Where a lead task's progress goes. */
export interface TaskProgressSinks {
  /** Before every model or tool call: what a cancelled task keeps (its run reads it when it writes the task's end). */
  readonly store: TaskProgressStore;
  /** At most one `taskProgress` signal to the run per this many ms: its live view of the task. 0: none. */
  readonly signalIntervalMs: number;
}

/**
 * Records a running lead task's progress before the execution waits on a model or a tool call, when
 * the usage or the evidence changed: in the progress store, and, at most once per signal interval
 * (the latest report, once the interval has passed), in a `taskProgress` signal to its run. A
 * cancellation or a timeout can only end the execution while it waits, so what it spent is stored
 * by then; what its last response spent comes with its result instead, which spares a one-turn task
 * the write. The store, not the signal, is what a cancelled task keeps (the run stops waiting for a
 * cancelled activity at once, and its failure brings nothing): a signal is a history event and a
 * workflow task of the run, and a signal before every call made the run's history and its workflow
 * tasks grow with every turn of every task. Best effort: a failed write or signal never fails the
 * task. Batch items run under item workflows, which write their own ends.
 */
export class TaskProgressReporter {
  readonly #ctx = Context.current();
  #latest: SubagentProgress | null = null;
  #stored: string | null = null;
  #signalled: string | null = null;
  #signalledAt = Date.now();
  /** The latest report not signalled yet, and the timer that signals it once the interval has passed. */
  #unsent: { readonly key: string; readonly report: TaskProgressReport } | null = null;
  #timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly input: SubagentTaskInput,
    private readonly sinks: TaskProgressSinks,
  ) {}

  /** Keeps `progress` for the run, which hears of it at the next {@link flush}. Heartbeats carry it through `withHeartbeats`' details. */
  publish(progress: SubagentProgress): void {
    this.#latest = progress;
  }

  /**
   * Stores the latest progress unless its usage and evidence are stored already, and signals it:
   * at once when the interval has passed since the execution started or last signalled, else when
   * it passes (unless a newer report replaces it, or the execution ends first).
   */
  async flush(): Promise<void> {
    const progress = this.#latest;
    if (progress === null || this.input.kind !== 'task') return;
    const key = JSON.stringify([progress.usage, progress.evidence]);
    if (key === this.#stored) return;
    this.#stored = key;
    const { threadId, runId, taskId, attempt } = this.input;
    try {
      await this.sinks.store.putProgress({ threadId, runId, taskId }, { attempt, progress });
    } catch (err) {
      log.warn('Storing task progress failed', { taskId, error: String(err) });
    }
    if (this.sinks.signalIntervalMs <= 0) return;
    this.#unsent = { key, report: { taskId, attempt, progress } };
    const wait = this.#signalledAt + this.sinks.signalIntervalMs - Date.now();
    if (wait <= 0) {
      await this.#signalUnsent();
    } else {
      this.#timer ??= setTimeout(() => {
        this.#timer = null;
        void this.#signalUnsent();
      }, wait);
    }
  }

  /** Sends no more signals: the execution ended, and its result or failure tells the run the rest. */
  stop(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.#unsent = null;
  }

  async #signalUnsent(): Promise<void> {
    const unsent = this.#unsent;
    const workflowId = this.#ctx.info.workflowExecution?.workflowId;
    this.#unsent = null;
    if (unsent === null || unsent.key === this.#signalled || workflowId === undefined) return;
    this.#signalled = unsent.key;
    this.#signalledAt = Date.now();
    try {
      await this.#ctx.client.workflow.getHandle(workflowId).signal(taskProgressSignal, unsent.report);
    } catch (err) {
      log.warn('Reporting task progress to the run failed', { taskId: unsent.report.taskId, error: String(err) });
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
