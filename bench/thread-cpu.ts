import { readdirSync, readFileSync } from 'node:fs';

/** On-CPU time of one thread of this process. */
export interface ThreadCpu {
  readonly tid: number;
  /** The kernel's thread name (`node` for JavaScript and V8 threads, `tokio-runtime-w` and such for the SDK's Rust core). */
  readonly name: string;
  readonly ms: number;
  /** Time it was ready to run but waited for a core (the run queue). */
  readonly waitMs: number;
}

const TASKS = '/proc/self/task';

/**
 * On-CPU time of every thread of this process now, from Linux's `/proc/self/task/<tid>/schedstat`
 * (nanoseconds, so no clock-tick rounding); null where that is not available.
 */
export function threadCpuSnapshot(): Map<number, ThreadCpu> | null {
  let tids: string[];
  try {
    tids = readdirSync(TASKS);
  } catch {
    return null;
  }
  const threads = new Map<number, ThreadCpu>();
  for (const entry of tids) {
    try {
      const [onCpu, waiting] = readFileSync(`${TASKS}/${entry}/schedstat`, 'utf8').split(' ').map(Number);
      const name = readFileSync(`${TASKS}/${entry}/comm`, 'utf8').trim();
      threads.set(Number(entry), { tid: Number(entry), name, ms: (onCpu ?? 0) / 1e6, waitMs: (waiting ?? 0) / 1e6 });
    } catch {
      // The thread ended between listing and reading: it has nothing more to add.
    }
  }
  return threads;
}

/**
 * CPU time each thread spent between two snapshots. A thread that ended in between is missing
 * (its time counts in the process total only), one that started counts from zero.
 */
export function threadCpuDelta(before: ReadonlyMap<number, ThreadCpu>, after: ReadonlyMap<number, ThreadCpu>): ThreadCpu[] {
  return [...after.values()].map((thread) => {
    const earlier = before.get(thread.tid);
    return { ...thread, ms: thread.ms - (earlier?.ms ?? 0), waitMs: thread.waitMs - (earlier?.waitMs ?? 0) };
  });
}
