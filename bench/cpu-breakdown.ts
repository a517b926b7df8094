/**
 * CPU per task by phase for one repetition run under the V8 sampling profiler: the main thread
 * and the SDK's workflow threads are profiled and their samples attributed to phases
 * (bench/cpu-phases.ts); every thread's CPU time is measured on its own (bench/thread-cpu.ts), so
 * each profiled thread's phases are its measured CPU split by sample shares, and the threads that
 * run no JavaScript (the SDK's Rust core, V8's helpers) are rows of their own.
 */
import { CpuProfiler, type ThreadProfile } from './cpu-profiler';
import { attributeSamples, MAIN_THREAD_RULES, WORKFLOW_THREAD_RULES, type PhaseRules, type PhaseSamples } from './cpu-phases';
import { timedRun } from './measure';
import { fixed, table } from './stats';
import { threadCpuDelta, threadCpuSnapshot, type ThreadCpu } from './thread-cpu';

/** Sampling interval of the profiled repetition. */
export const PROFILE_INTERVAL_US = 1000;

/** Where V8 runs its sampling profiler (one such thread per profiled isolate). */
const PROFILER_THREAD = 'v8:ProfEvntProc';

/** One profiled kind of thread: its measured CPU split into phases. */
interface ProfiledThreads {
  readonly count: number;
  /** Measured CPU (per-thread counters), or the profile's busy time where there are none. */
  readonly cpuMs: number;
  /** Busy time by the profiles' own clock (wall time between busy samples). */
  readonly profiledMs: number;
  /** CPU ms per phase key. */
  readonly phases: Map<string, number>;
  readonly unmatched: Map<string, number>;
}

/** A profiled repetition, ms for the whole repetition. */
export interface CpuBreakdown {
  readonly wallMs: number;
  /** `process.cpuUsage()` over the repetition (all threads). */
  readonly processCpuMs: number;
  readonly main: ProfiledThreads;
  /** How long the main thread was ready to run but waited for a core; null without per-thread counters. */
  readonly mainWaitMs: number | null;
  readonly workflow: ProfiledThreads;
  /** Threads without a profile, by kind; null without per-thread counters. */
  readonly unprofiled: { readonly rust: number; readonly rustNames: readonly string[]; readonly otherNode: number; readonly profiler: number } | null;
}

/** Runs `run` once under the profiler and splits its CPU by thread and phase. */
export async function profileRepetition(run: () => Promise<unknown>): Promise<CpuBreakdown> {
  const profiler = await CpuProfiler.attach(PROFILE_INTERVAL_US);
  let profiles: ThreadProfile[];
  let before: Map<number, ThreadCpu> | null;
  let after: Map<number, ThreadCpu> | null;
  let wallMs: number;
  let processCpuMs: number;
  try {
    // Started before the counters are read, so the profilers' own threads show as a row.
    await profiler.start();
    before = threadCpuSnapshot();
    ({ wallMs, cpuMs: processCpuMs } = (await timedRun(run)).sample);
    after = threadCpuSnapshot();
    profiles = await profiler.stop();
  } finally {
    profiler.close();
  }
  const threads = before && after ? threadCpuDelta(before, after) : null;
  const cpuOf = (tid: number | null): number | null => threads?.find((t) => t.tid === tid)?.ms ?? null;
  const mainProfiles = profiles.filter((p) => p.thread === 'main');
  const workerProfiles = profiles.filter((p) => p.thread === 'worker');
  const profiledTids = new Set(profiles.map((p) => p.tid));
  const unprofiled =
    threads === null
      ? null
      : {
          rust: sum(threads.filter((t) => !profiledTids.has(t.tid) && t.name !== 'node' && t.name !== PROFILER_THREAD).map((t) => t.ms)),
          rustNames: [...new Set(threads.filter((t) => t.name !== 'node' && t.name !== PROFILER_THREAD && t.ms > 0).map((t) => t.name))].sort(),
          otherNode: sum(threads.filter((t) => !profiledTids.has(t.tid) && t.name === 'node').map((t) => t.ms)),
          profiler: sum(threads.filter((t) => t.name === PROFILER_THREAD).map((t) => t.ms)),
        };
  return {
    wallMs,
    processCpuMs,
    main: splitThreads(mainProfiles, MAIN_THREAD_RULES, cpuOf),
    mainWaitMs: threads?.find((t) => t.tid === process.pid)?.waitMs ?? null,
    workflow: splitThreads(workerProfiles, WORKFLOW_THREAD_RULES, cpuOf),
    unprofiled,
  };
}

function splitThreads(profiles: readonly ThreadProfile[], rules: PhaseRules, cpuOf: (tid: number | null) => number | null): ProfiledThreads {
  const phases = new Map<string, number>();
  const unmatched = new Map<string, number>();
  let cpuMs = 0;
  let profiledMs = 0;
  for (const { profile, tid } of profiles) {
    const samples: PhaseSamples = attributeSamples(profile, rules);
    const threadCpu = cpuOf(tid) ?? samples.busyMs;
    cpuMs += threadCpu;
    profiledMs += samples.busyMs;
    for (const [phase, count] of samples.byPhase) phases.set(phase, (phases.get(phase) ?? 0) + (samples.busy === 0 ? 0 : (threadCpu * count) / samples.busy));
    for (const [frame, count] of samples.unmatched) unmatched.set(frame, (unmatched.get(frame) ?? 0) + count);
  }
  return { count: profiles.length, cpuMs, profiledMs, phases, unmatched };
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

function pct(part: number, whole: number): string {
  return `${fixed((100 * part) / whole, 1)}%`;
}

/**
 * The breakdown as text, in CPU ms per unit (`units` tasks, or batch items with `unit: 'item'`, over
 * all `reps` profiled repetitions) and share of all threads' CPU.
 */
export function breakdownText(
  label: string,
  breakdown: CpuBreakdown,
  units: number,
  medianCpuMsPerUnit: number,
  { reps = 1, unit = 'task' }: { readonly reps?: number; readonly unit?: 'task' | 'item' } = {},
): string {
  const { main, workflow, unprofiled } = breakdown;
  const threadsTotal = main.cpuMs + workflow.cpuMs + (unprofiled ? unprofiled.rust + unprofiled.otherNode + unprofiled.profiler : 0);
  const total = unprofiled ? threadsTotal : breakdown.processCpuMs;
  const row = (name: string, ms: number): string[] => [name, fixed(ms / units, 2), pct(ms, total)];
  const rows: string[][] = [];
  const phaseRows = (threads: ProfiledThreads, rules: PhaseRules) => {
    const groups = new Set<string>();
    for (const phase of rules.phases) {
      if (phase.group !== undefined && !groups.has(phase.group)) {
        groups.add(phase.group);
        const members = rules.phases.filter((p) => p.group === phase.group);
        rows.push(row(`  ${phase.group} (all)`, sum(members.map((p) => threads.phases.get(p.key) ?? 0))));
      }
      rows.push(row(`  ${phase.group === undefined ? '' : '  '}${phase.label}`, threads.phases.get(phase.key) ?? 0));
    }
  };
  rows.push(row('main thread: activities, workers\' JavaScript side, client', main.cpuMs));
  phaseRows(main, MAIN_THREAD_RULES);
  rows.push(row(`workflow thread${workflow.count === 1 ? '' : 's'} (${workflow.count}): workflow code and the SDK around it`, workflow.cpuMs));
  phaseRows(workflow, WORKFLOW_THREAD_RULES);
  if (unprofiled) {
    rows.push(row(`Temporal core SDK, Rust threads (${unprofiled.rustNames.join(', ') || 'none'})`, unprofiled.rust));
    rows.push(row('other node threads: V8 helpers (concurrent GC, compiler), libuv pool', unprofiled.otherNode));
    rows.push(row('V8 profiler sampling threads (profiling overhead, this repetition only)', unprofiled.profiler));
  } else {
    rows.push(row('other threads (process CPU minus the profiled threads\' busy time)', Math.max(0, breakdown.processCpuMs - main.cpuMs - workflow.cpuMs)));
  }
  rows.push(row('total', total));

  const checks = unprofiled
    ? [
        `check: the threads' own CPU counters (/proc/self/task/*/schedstat) add up to ${fixed(threadsTotal, 0)} ms, process.cpuUsage() says ` +
          `${fixed(breakdown.processCpuMs, 0)} ms (${pct(threadsTotal - breakdown.processCpuMs, breakdown.processCpuMs)} apart; threads that ended during the repetition are only in the latter).`,
        `check: the profiles saw ${fixed(main.profiledMs, 0)} ms busy on the main thread for ${fixed(main.cpuMs, 0)} ms of CPU measured ` +
          `(+ ${fixed(breakdown.mainWaitMs ?? 0, 0)} ms waiting for a core), ${fixed(workflow.profiledMs, 0)} ms on the workflow threads for ${fixed(workflow.cpuMs, 0)} ms; ` +
          'busy time is wall time between samples, so it includes the waits.',
      ]
    : ['no per-thread CPU counters here (Linux /proc only): the profiled threads are their busy time by the profiles\' clock, the rest of the process CPU is "other threads".'];
  const topUnmatched = [...main.unmatched.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5);
  return [
    `${label}: CPU per ${unit} by phase (${reps === 1 ? 'one extra repetition' : `${reps} extra repetitions`} under the V8 sampling profiler at ${PROFILE_INTERVAL_US} µs; ` +
      `${fixed(breakdown.wallMs, 0)} ms wall, ${fixed(breakdown.processCpuMs / units, 2)} CPU ms/${unit} against ${fixed(medianCpuMsPerUnit, 2)} in the measured reps):`,
    table(['phase', `CPU ms/${unit}`, 'share'], rows),
    ...checks,
    `main thread "other", top frames: ${topUnmatched.map(([frame, count]) => `${frame} (${count})`).join(', ') || 'none'}`,
  ].join('\n');
}
