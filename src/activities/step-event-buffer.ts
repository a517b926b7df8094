import { log } from '@temporalio/activity';
import { executionScopeOf, SUBAGENT_EVENT_CATEGORY, type SubagentExecutionScope, type SubagentStepPayload, type SubagentTaskInput, type TokenUsage } from '../contracts';
import { DEFAULT_LIST_EVENTS_LIMIT, type NewRunEvent, type RunEventStore } from '../store';
import type { TakenOverStep } from './step-capture';

/** Pending step rows are written together once this many accumulate (SPEC §4.4). */
export const FLUSH_THRESHOLD = 25;

/**
 * Buffers a subagent's `subagent.step` rows and writes them in batches. Every row has a dedupe key
 * derived from (task, attempt, step), so a retried write never duplicates a row; a failed flush
 * keeps its rows ahead of newer ones for the next try.
 */
export class StepEventBuffer {
  private pending: NewRunEvent[] = [];
  /** Settles once every write asked for so far has (none rejects). */
  private writing: Promise<void> = Promise.resolve();
  private readonly scope: SubagentExecutionScope;

  constructor(
    private readonly store: RunEventStore,
    private readonly task: SubagentTaskInput,
  ) {
    this.scope = executionScopeOf(task);
  }

  /** Writes `subagent.start` once per task (a later attempt finds it already written). */
  async start(modelName: string): Promise<void> {
    await this.store.putBatch([
      {
        dedupeKey: `start:${this.scope.threadId}:${this.scope.runId}:${this.scope.taskId}`,
        runId: this.scope.runId,
        threadId: this.scope.threadId,
        category: SUBAGENT_EVENT_CATEGORY,
        event: 'subagent.start',
        taskId: this.scope.taskId,
        payload: {
          task_id: this.scope.taskId,
          description: this.task.description,
          subagent: this.task.subagentType,
          model_name: modelName,
          attempt: this.task.attempt,
        },
      },
    ]);
  }

  async add(step: SubagentStepPayload, usage: TokenUsage | null): Promise<void> {
    this.pending.push(this.row(step, usage));
    if (this.pending.length >= FLUSH_THRESHOLD) await this.flush();
  }

  /**
   * Writes the steps of a taken-over conversation that no attempt stored: an attempt killed before
   * its flush took its buffered rows with it. Steps are matched by index, whoever wrote them, so
   * the timeline has each step once. Never throws.
   */
  async restore(steps: readonly TakenOverStep[]): Promise<void> {
    try {
      const stored = await this.storedStepIndexes();
      for (const { step, usage } of steps) if (!stored.has(step.message_index)) this.pending.push(this.row(step, usage));
    } catch (err) {
      log.warn('Reading the stored steps of a taken-over task failed; its missing steps stay missing', { error: String(err) });
      return;
    }
    await this.flush();
  }

  private async storedStepIndexes(): Promise<Set<number>> {
    const indexes = new Set<number>();
    const { runId, threadId, taskId } = this.scope;
    let afterSeq: number | undefined;
    for (;;) {
      const page = await this.store.listEvents({ runId, threadId, taskId, eventTypes: ['subagent.step'], afterSeq, limit: DEFAULT_LIST_EVENTS_LIMIT });
      for (const row of page) indexes.add((row.payload as SubagentStepPayload).message_index);
      if (page.length < DEFAULT_LIST_EVENTS_LIMIT) return indexes;
      afterSeq = page.at(-1)?.seq;
    }
  }

  private row(step: SubagentStepPayload, usage: TokenUsage | null): NewRunEvent {
    return {
      dedupeKey: `step:${this.scope.threadId}:${this.scope.runId}:${this.scope.taskId}:${this.task.attempt}:${step.message_index}`,
      runId: this.scope.runId,
      threadId: this.scope.threadId,
      category: SUBAGENT_EVENT_CATEGORY,
      event: 'subagent.step',
      taskId: this.scope.taskId,
      payload: { ...step, usage },
    };
  }

  /**
   * Writes pending rows and resolves once every row added so far was written or put back: a flush
   * also waits for one already writing (the execution's last flush must not end before an earlier
   * one it raced). Never throws (events must not fail the subagent).
   */
  async flush(): Promise<void> {
    if (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      // Asked for at once (a store may commit it with the one in flight), settled after every earlier one.
      this.writing = Promise.all([this.writing, this.write(batch)]).then(() => undefined);
    }
    await this.writing;
  }

  private async write(batch: NewRunEvent[]): Promise<void> {
    try {
      await this.store.putBatch(batch);
    } catch (err) {
      this.pending = [...batch, ...this.pending];
      log.warn('Writing subagent step events failed; will retry on the next flush', { error: String(err) });
    }
  }
}
