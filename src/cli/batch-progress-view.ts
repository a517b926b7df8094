import { SingleBar } from 'cli-progress';
import { formatCounts, formatProgressLine, type BatchProgress } from './batch-progress';
import { formatDuration, formatRate, RateEstimator } from './progress-rate';

/** Shows a batch's progress while it runs. */
export interface BatchProgressView {
  update(progress: BatchProgress): void;
  /** Ends the display; its last state stays visible. */
  stop(): void;
}

/** Plain lines are written at least this far apart, unless `done` enters a new tenth. */
export const PLAIN_LINE_INTERVAL_MS = 5_000;

function tenthOf(progress: BatchProgress): number {
  return progress.total === 0 ? 10 : Math.floor((progress.done * 10) / progress.total);
}

/**
 * Progress as plain lines, for logs and pipes: a line when the share done enters a new tenth, and
 * otherwise at most one every {@link PLAIN_LINE_INTERVAL_MS} while the counts change.
 */
export class ProgressLines implements BatchProgressView {
  private readonly rate = new RateEstimator();
  private last: { readonly at: number; readonly tenth: number; readonly counts: string } | null = null;
  private latest: BatchProgress | null = null;

  constructor(
    private readonly out: { write(text: string): unknown },
    private readonly now: () => number = Date.now,
  ) {}

  update(progress: BatchProgress): void {
    const at = this.now();
    this.rate.add(at, progress.done);
    this.latest = progress;
    const counts = formatCounts(progress);
    const last = this.last;
    if (last === null || tenthOf(progress) > last.tenth || (counts !== last.counts && at - last.at >= PLAIN_LINE_INTERVAL_MS)) {
      this.write(progress, at);
    }
  }

  stop(): void {
    // The final counts are shown even when they arrived between two due lines.
    if (this.latest !== null && formatCounts(this.latest) !== this.last?.counts) this.write(this.latest, this.now());
  }

  private write(progress: BatchProgress, at: number): void {
    this.out.write(`${formatProgressLine(progress, formatRate(this.rate.rate()), formatDuration(this.rate.etaSeconds(progress.total)))}\n`);
    this.last = { at, tenth: tenthOf(progress), counts: formatCounts(progress) };
  }
}

/** Progress as a live bar redrawn in place (cli-progress), for terminals. */
export class ProgressBar implements BatchProgressView {
  private readonly rate = new RateEstimator();
  private readonly bar: SingleBar;
  private started = false;

  constructor(
    out: NodeJS.WriteStream,
    private readonly now: () => number = Date.now,
  ) {
    this.bar = new SingleBar({
      stream: out,
      format: 'batch [{bar}] {value}/{total} {percentage}% | {counts} | {speed} | ETA {left}',
      barsize: 24,
      // Ctrl-C is ours: it cancels the batch, then stops the bar.
      gracefulExit: false,
    });
  }

  update(progress: BatchProgress): void {
    this.rate.add(this.now(), progress.done);
    const payload = {
      counts: formatCounts(progress),
      speed: formatRate(this.rate.rate()),
      left: formatDuration(this.rate.etaSeconds(progress.total)),
    };
    if (this.started) {
      this.bar.update(progress.done, payload);
    } else {
      this.bar.start(progress.total, progress.done, payload);
      this.started = true;
    }
  }

  stop(): void {
    if (this.started) this.bar.stop();
    this.started = false;
  }
}

/** A bar when `out` is a terminal, else plain lines. */
export function createProgressView(out: NodeJS.WriteStream): BatchProgressView {
  return out.isTTY ? new ProgressBar(out) : new ProgressLines(out);
}
