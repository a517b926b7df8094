/** How far back {@link RateEstimator} looks. @default 30000 ms */
export const RATE_WINDOW_MS = 30_000;

/**
 * Items finished per second over a sliding window, and the time left at that rate. A window (not
 * the average since the start) follows a batch whose pace changes, e.g. once its slots fill up.
 */
export class RateEstimator {
  private readonly samples: Array<{ readonly at: number; readonly done: number }> = [];

  constructor(private readonly windowMs: number = RATE_WINDOW_MS) {}

  /** Records that `done` items had finished at time `at` (ms). */
  add(at: number, done: number): void {
    this.samples.push({ at, done });
    // Keep one sample at or before the window's start, so the rate always spans the whole window.
    while (this.samples.length > 2 && this.samples[1]!.at <= at - this.windowMs) this.samples.shift();
  }

  /** Items per second, or null until two samples are apart in time. */
  rate(): number | null {
    const first = this.samples[0];
    const last = this.samples[this.samples.length - 1];
    if (first === undefined || last === undefined || last.at <= first.at) return null;
    return (last.done - first.done) / ((last.at - first.at) / 1000);
  }

  /** Seconds until `total` items are done at the current rate: 0 when done, null when unknown. */
  etaSeconds(total: number): number | null {
    const last = this.samples[this.samples.length - 1];
    if (last === undefined) return null;
    if (last.done >= total) return 0;
    const rate = this.rate();
    return rate === null || rate <= 0 ? null : (total - last.done) / rate;
  }
}

/** `0.25 items/s`, `12.5 items/s`; `- items/s` while unknown. */
export function formatRate(rate: number | null): string {
  if (rate === null) return '- items/s';
  return `${rate.toFixed(rate < 10 ? 2 : 1)} items/s`;
}

/** `45s`, `3m05s`, `2h07m`; `--` while unknown. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '--';
  const s = Math.ceil(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}
