import { log } from '@temporalio/activity';
import { SUBAGENT_EVENT_CATEGORY, type SubagentStepPayload, type SubagentTaskInput, type TokenUsage } from '../contracts';
import type { NewRunEvent, RunEventStore } from '../store';

/** Pending step rows are written together once this many accumulate (SPEC §4.4). */
export const FLUSH_THRESHOLD = 25;

/**
 * Buffers a subagent's `subagent.step` rows and writes them in batches. Every row has a dedupe key
 * derived from (task, attempt, step), so a retried write never duplicates a row; a failed flush
 * keeps its rows ahead of newer ones for the next try.
 */
export class StepEventBuffer {
  private pending: NewRunEvent[] = [];

  constructor(
    private readonly store: RunEventStore,
    private readonly task: SubagentTaskInput,
  ) {}

  /** Writes `subagent.start` once per task (a later attempt finds it already written). */
  async start(modelName: string): Promise<void> {
    await this.store.putBatch([
      {
        dedupeKey: `start:${this.task.threadId}:${this.task.runId}:${this.task.taskId}`,
        runId: this.task.runId,
        threadId: this.task.threadId,
        category: SUBAGENT_EVENT_CATEGORY,
        event: 'subagent.start',
        taskId: this.task.taskId,
        payload: {
          task_id: this.task.taskId,
          description: this.task.description,
          subagent: this.task.subagentType,
          model_name: modelName,
          attempt: this.task.attempt,
        },
      },
    ]);
  }

  async add(step: SubagentStepPayload, usage: TokenUsage | null): Promise<void> {
    this.pending.push({
      dedupeKey: `step:${this.task.threadId}:${this.task.runId}:${this.task.taskId}:${this.task.attempt}:${step.message_index}`,
      runId: this.task.runId,
      threadId: this.task.threadId,
      category: SUBAGENT_EVENT_CATEGORY,
      event: 'subagent.step',
      taskId: this.task.taskId,
      payload: { ...step, usage },
    });
    if (this.pending.length >= FLUSH_THRESHOLD) await this.flush();
  }

  /** Writes pending rows; never throws (events must not fail the subagent). */
  async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    try {
      await this.store.putBatch(batch);
    } catch (err) {
      this.pending = [...batch, ...this.pending];
      log.warn('Writing subagent step events failed; will retry on the next flush', { error: String(err) });
    }
  }
}
