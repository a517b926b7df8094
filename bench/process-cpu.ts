import { readdirSync, readFileSync } from 'node:fs';

/**
 * On-CPU time of another process so far (every thread of it), from Linux's
 * `/proc/<pid>/task/<tid>/schedstat` (nanoseconds); null where that is not available. The
 * benchmark reads the dev server's with it: the server shares the machine's cores with the
 * workers, so its CPU per task is part of what the wall time pays for.
 */
export function processCpuMs(pid: number): number | null {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return null;
  }
  let ns = 0;
  for (const tid of tids) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0] ?? 0);
    } catch {
      // The thread ended between listing and reading: its time is lost to this reading only.
    }
  }
  return ns / 1e6;
}

/** Reads `pid`'s CPU time so far (ms) with {@link processCpuMs}; null without a pid or `/proc`. */
export function processCpuReader(pid: number | null): () => number | null {
  return () => (pid === null ? null : processCpuMs(pid));
}

/** Starts measuring with `read`; the returned function gives the ms spent since, or NaN where `read` cannot tell. */
export function cpuSpan(read: () => number | null): () => number {
  const before = read();
  return () => {
    const after = read();
    return before === null || after === null ? Number.NaN : after - before;
  };
}
