import { CancellationScope, condition } from '@temporalio/workflow';
import type { CallOutcome, SubagentProgress, ToolOutcome } from '../contracts';
import { localBookkeeping } from './activity-proxies';

interface PendingOutcome {
  readonly callId: string;
  readonly outcome: ToolOutcome;
  readonly written: (spent: SubagentProgress | null) => void;
  readonly failed: (err: unknown) => void;
}

/**
 * Resolves once the microtasks the current activation started have run: the SDK evaluates blocked
 * conditions only then, and this one is false when first evaluated. Every outcome that became
 * known in the activation is pending by then, so it joins the burst.
 */
function activationSettled(): Promise<void> {
  let reached = false;
  const settled = condition(() => reached);
  reached = true;
  return settled;
}

/**
 * Writes a run's tool outcomes in bursts (patch `batched-task-bookkeeping`): one `recordToolOutcome`, a
 * local activity, takes every outcome that became known in the same workflow activation, and those
 * that became known while the previous write was in flight. Older runs wrote one per call, each an
 * activity of its own. Since patch `lead-outcomes-in-step` a response's last burst is left to the
 * next model step instead.
 */
export class ToolOutcomeWriter {
  readonly #pending: PendingOutcome[] = [];
  #leftForStep: CallOutcome[] = [];

  /**
   * `leaveToStep` decides which bursts the next model step writes instead (patch
   * `lead-outcomes-in-step`, see `writtenByNextStep`); null where every burst is written at once.
   */
  constructor(
    private readonly threadId: string,
    private readonly runId: string,
    private readonly leaveToStep: ((burst: readonly CallOutcome[]) => boolean) | null,
  ) {}

  /** Outcomes left to the next model step (`leadModelStepWithOutcomes`): [] when there are none. */
  get leftForStep(): readonly CallOutcome[] {
    return this.#leftForStep;
  }

  /** The model step that was given {@link leftForStep} stored them. */
  stepWrote(): void {
    this.#leftForStep = [];
  }

  /**
   * Writes the outcomes left to a model step that will not run (the run stops, fails, or continues
   * as new first), or whose end the run did not see: every write is keyed, so what a step already
   * wrote is not written twice. Non-cancellable, like every outcome write.
   */
  async writeLeftForStep(): Promise<void> {
    if (this.#leftForStep.length === 0) return;
    const outcomes = this.#leftForStep;
    await CancellationScope.nonCancellable(() => localBookkeeping.recordToolOutcome({ threadId: this.threadId, runId: this.runId, outcomes }));
    this.#leftForStep = [];
  }

  /**
   * Resolves once the call's outcome is stored, with the spend the write took from the progress
   * store for it (see `spendInStore`), if any, or with none once it is left to the next model step;
   * rejects when its write failed for good.
   */
  write(callId: string, outcome: ToolOutcome): Promise<SubagentProgress | null> {
    return new Promise((written, failed) => {
      this.#pending.push({ callId, outcome, written, failed });
    });
  }

  /**
   * The writer's loop, for the run's lifetime; `onBurst` runs once per burst, before its write, told
   * whether the burst is left to the next model step. Non-cancellable, like every outcome write: a
   * cancelled run's outcomes are written too.
   */
  run(onBurst: (leftToStep: boolean) => void): Promise<never> {
    return CancellationScope.nonCancellable(async () => {
      for (;;) {
        await condition(() => this.#pending.length > 0);
        await activationSettled();
        const burst = this.#pending.splice(0);
        const outcomes = burst.map(({ callId, outcome }) => ({ callId, outcome }));
        const leftToStep = this.leaveToStep?.(outcomes) ?? false;
        onBurst(leftToStep);
        if (leftToStep) {
          // Settled now: the response is done, and the workflow task that learned its last
          // outcomes schedules the step that writes them, with no local activity before it.
          this.#leftForStep.push(...outcomes);
          for (const pending of burst) pending.written(null);
          continue;
        }
        try {
          const recorded = await localBookkeeping.recordToolOutcome({ threadId: this.threadId, runId: this.runId, outcomes });
          // Nothing came back in histories recorded before the writer read stored spend.
          const spent = new Map((recorded?.spent ?? []).map((s) => [s.callId, s.progress]));
          for (const pending of burst) pending.written(spent.get(pending.callId) ?? null);
        } catch (err) {
          for (const pending of burst) pending.failed(err);
        }
      }
    });
  }
}
