import { sleep } from '@temporalio/workflow';
import type { BatchItemCounts, BatchItemRuntime } from '../contracts';
import { batchStore } from './activity-proxies';
import { countsAtStart, nextPollMs, openItems, shouldSettle } from './batch-earlier-items';

/**
 * A batch run's watch over the items its earlier runs started (keys up to `throughKey`), which
 * run on without a parent (patch `batch-items-outlive-runs`). It polls their stored counts on a
 * timer of its own: the poll interval after a change, backing off to a lease length while nothing
 * changes; a poll after a lease length without change also settles items whose workflow closed
 * without ending them. `wake` tells the batch's loop that a poll is due.
 */
export class EarlierItemsWatch {
  #counts: BatchItemCounts | null;
  #waitMs: number;
  #armed = false;
  #due = false;
  #unchangedSince = Date.now();

  private constructor(
    private readonly runtime: BatchItemRuntime,
    private readonly throughKey: string,
    counts: BatchItemCounts,
    private readonly wake: () => void,
  ) {
    this.#counts = counts;
    this.#waitMs = runtime.pollIntervalSeconds * 1000;
  }

  /** Reads the earlier items' counts as stored. */
  static async start(runtime: BatchItemRuntime, throughKey: string, wake: () => void): Promise<EarlierItemsWatch> {
    const { counts } = await batchStore.startedBatchItems({ runtime, throughKey, settle: false });
    return new EarlierItemsWatch(runtime, throughKey, counts, wake);
  }

  /** The run's counts at its start: the earlier items as last read, every later one `pending`. */
  runCountsAtStart(itemCount: number): BatchItemCounts {
    return countsAtStart(itemCount, this.#counts ?? { pending: 0, running: 0, completed: 0, failed: 0, cancelled: 0, timed_out: 0 });
  }

  /** How many have not ended, as last read. */
  get open(): number {
    return this.#counts === null ? 0 : openItems(this.#counts);
  }

  /** True when the timer fired: the loop should {@link poll}. */
  get due(): boolean {
    return this.#due && this.#counts !== null;
  }

  /** Starts the poll timer unless it runs, or nothing is left to watch. */
  arm(): void {
    if (this.#armed || this.open === 0) return;
    this.#armed = true;
    void sleep(this.#waitMs).then(
      () => {
        this.#due = true;
        this.wake();
      },
      () => undefined,
    );
  }

  /** Reads their counts again: what they were and are now, or null when the batch was cancelled meanwhile. */
  async poll(): Promise<{ before: BatchItemCounts; after: BatchItemCounts } | null> {
    this.#due = false;
    this.#armed = false;
    const settle = shouldSettle(Date.now() - this.#unchangedSince, this.runtime.leaseSeconds * 1000);
    const { counts: after } = await batchStore.startedBatchItems({ runtime: this.runtime, throughKey: this.throughKey, settle });
    const before = this.#counts;
    if (before === null) return null;
    const changed = openItems(after) !== openItems(before);
    if (changed || settle) this.#unchangedSince = Date.now();
    this.#counts = after;
    this.#waitMs = nextPollMs(this.#waitMs, changed, this.runtime.pollIntervalSeconds * 1000, this.runtime.leaseSeconds * 1000);
    return { before, after };
  }

  /** Asks Temporal to cancel the open ones (no run is their parent); run before the store cancels the batch. */
  async cancel(): Promise<void> {
    await batchStore.cancelStartedBatchItems({ batchId: this.runtime.batchId, throughKey: this.throughKey });
  }

  /** The batch was cancelled in the store: nothing is open any more. Returns how many were. */
  ended(): number {
    const open = this.open;
    this.#counts = null;
    return open;
  }
}
