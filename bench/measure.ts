import { performance } from 'node:perf_hooks';
import { cpuSpan } from './process-cpu';

/** One measured execution: wall time, this process's CPU time (workers + client) and the dev server's. */
export interface Sample {
  readonly wallMs: number;
  readonly cpuMs: number;
  /** The dev server's CPU time over the repetition; NaN where it cannot be read. */
  readonly serverCpuMs: number;
}

/** Reads the dev server's CPU time so far (ms), or null where it cannot. */
export type ServerCpuReader = () => number | null;

/** Something measured repeatedly: a raw baseline or a deerflow run shape. */
export interface Variant {
  readonly label: string;
  /** Untimed setup before each repetition (for example a file the run reads). */
  readonly prepare: (() => Promise<void>) | null;
  /** One repetition; returns the ids of the workflows it ran (for the history breakdown). */
  readonly run: () => Promise<readonly string[]>;
  readonly samples: Sample[];
  /** The ids of the workflows each measured repetition ran, in order. */
  readonly workflowIds: Array<readonly string[]>;
}

export function variant(label: string, run: () => Promise<readonly string[]>, prepare: (() => Promise<void>) | null = null): Variant {
  return { label, prepare, run, samples: [], workflowIds: [] };
}

/** Runs `work` once, timed: its wall time, this process's CPU time and the dev server's, beside its result. */
export async function timedRun<T>(work: () => Promise<T>, serverCpu: ServerCpuReader = () => null): Promise<{ readonly result: T; readonly sample: Sample }> {
  const server = cpuSpan(serverCpu);
  const cpuBefore = process.cpuUsage();
  const t0 = performance.now();
  const result = await work();
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpuBefore);
  return { result, sample: { wallMs, cpuMs: (cpu.user + cpu.system) / 1000, serverCpuMs: server() } };
}

/** Times one repetition of `variant` (its `prepare` is not timed); records it unless a warm-up. */
export async function measure(variant: Variant, record: boolean, serverCpu: ServerCpuReader = () => null): Promise<void> {
  await variant.prepare?.();
  const { result: ids, sample } = await timedRun(variant.run, serverCpu);
  if (!record) return;
  variant.samples.push(sample);
  variant.workflowIds.push(ids);
}

/**
 * `items` starting at index `round` (modulo their count), wrapping around: round r of a benchmark
 * runs its variants in `rotated(variants, r)`, so each takes each place in the order equally often.
 * The place matters on one dev server: work a variant leaves behind (timeout timers that come due
 * 10 s to minutes later, a larger database) slows the variant that runs after it.
 */
export function rotated<T>(items: readonly T[], round: number): T[] {
  const start = round % Math.max(items.length, 1);
  return [...items.slice(start), ...items.slice(0, start)];
}

/**
 * `warmup` unmeasured then `reps` measured repetitions of every variant, interleaved and rotated
 * (A, B, C, B, C, A, C, A, B, ...) so that drift in machine load, and what one variant leaves
 * behind on the server, hit all of them alike.
 */
export async function measureInterleaved(variants: readonly Variant[], warmup: number, reps: number, serverCpu?: ServerCpuReader): Promise<void> {
  for (let i = 0; i < warmup; i++) for (const v of rotated(variants, i)) await measure(v, false, serverCpu);
  for (let i = 0; i < reps; i++) for (const v of rotated(variants, warmup + i)) await measure(v, true, serverCpu);
}

/** Each sample's `field` divided by `units` (tasks, calls). */
export function perUnit(variant: Variant, units: number, field: keyof Sample): number[] {
  return variant.samples.map((s) => s[field] / units);
}
