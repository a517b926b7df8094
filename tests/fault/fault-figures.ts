import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LeadRunState } from '../../src/contracts';
import type { RunEventStore } from '../../src/store';

/** Where fault and fuzz runs leave their figures (git-ignored); `npm run fault:figures` reads it. */
export const FAULT_FIGURES_DIR = join(__dirname, '..', '..', '.fault-figures');

/** What one fault run measured: the README table shows one row per file. */
export interface FaultFigures {
  /** Requirement id and title, e.g. `R1 subagent worker kill -9`. */
  readonly title: string;
  /** Lead runs the fault hit. */
  readonly runs: number;
  /** Subagent tasks of those runs. */
  readonly tasks: number;
  /** Faults injected, e.g. `{ "kill -9": 20 }` or `{ "server restarts": 1 }`. */
  readonly faults: Readonly<Record<string, number>>;
  /** Anything lost or doubled (duplicate end events, missing ones, runs not completed ...): all must be 0. */
  readonly lost: Readonly<Record<string, number>>;
  /** Other measurements (time to cancel p50/max, attempts ...). */
  readonly measured?: Readonly<Record<string, number | string>>;
  /** Wall time of the fault scenario, without the dev server's start. */
  readonly seconds: number;
}

/**
 * Writes `figures` to `.fault-figures/<id>.json`. Called before the test's assertions, so a
 * failing run still shows what it measured.
 */
export function recordFaultFigures(id: string, figures: FaultFigures): void {
  mkdirSync(FAULT_FIGURES_DIR, { recursive: true });
  writeFileSync(join(FAULT_FIGURES_DIR, `${id}.json`), `${JSON.stringify({ id, ...figures, recordedAt: new Date().toISOString() }, null, 2)}\n`);
}

/** The `p`-quantile (0..1) of `values` by the nearest-rank method; NaN when empty. */
export function quantile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? Number.NaN;
}

/** The lead runs a fault test checks, by their ids. */
export interface CheckedRun {
  readonly runId: string;
  readonly workflowId: string;
}

/** What {@link tallyCompletedRuns} found: the "lost or doubled" counts (all must be 0) and each task's attempts. */
export interface CompletedRunsTally {
  readonly lost: {
    readonly 'runs not completed': number;
    readonly 'tasks not completed': number;
    readonly 'missing subagent.end': number;
    readonly 'duplicate subagent.end': number;
  };
  readonly attempts: readonly number[];
}

/**
 * Counts, over runs that should all have completed with `tasksPerRun` completed tasks each, what
 * went missing or doubled: runs or tasks not completed, tasks without or with more than one
 * `subagent.end`.
 */
export async function tallyCompletedRuns(
  runs: readonly CheckedRun[],
  tasksPerRun: number,
  getState: (workflowId: string) => Promise<LeadRunState>,
  events: RunEventStore,
): Promise<CompletedRunsTally> {
  const lost = { 'runs not completed': 0, 'tasks not completed': 0, 'missing subagent.end': 0, 'duplicate subagent.end': 0 };
  const attempts: number[] = [];
  for (const run of runs) {
    const state = await getState(run.workflowId);
    if (state.status !== 'completed') lost['runs not completed'] += 1;
    const ends = await events.listEvents({ runId: run.runId, eventTypes: ['subagent.end'], limit: 1000 });
    for (const t of state.tasks) {
      attempts.push(t.attempts);
      if (t.status !== 'completed') lost['tasks not completed'] += 1;
      const mine = ends.filter((e) => e.taskId === t.taskId).length;
      if (mine === 0) lost['missing subagent.end'] += 1;
      lost['duplicate subagent.end'] += Math.max(0, mine - 1);
    }
    lost['tasks not completed'] += Math.max(0, tasksPerRun - state.tasks.length);
  }
  return { lost, attempts };
}
