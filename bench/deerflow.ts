import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@temporalio/client';
import type { NativeConnection } from '@temporalio/worker';
import { stringify } from 'yaml';
import { DeerFlowClient, MAX_CONCURRENT_CEILING } from '../src/client';
import { loadConfig, type LoadedConfig } from '../src/config';
import type { LeadRunState, ModelSteps } from '../src/contracts';
import { openConfiguredStores, type Stores } from '../src/store';
import { createWorkers, type DeerflowWorkers } from '../src/worker/create-workers';

/** Hard per-run `task` limit of deerflow (`subagents.max_total_per_run` is validated to 1..50). */
export const MAX_TOTAL_PER_RUN_CEILING = 50;

/** Settings of the deerflow side of the benchmark. */
export interface DeerflowBenchOptions {
  /** The workers' connection; the client starts runs on it too, eagerly, as `npm start` does. */
  readonly connection: NativeConnection;
  readonly namespace: string;
  /** Folder for config, scenarios and the SQLite store (the caller deletes it). */
  readonly dir: string;
  /** Every N the benchmark will measure (scenarios are written for them up front). */
  readonly taskCounts: readonly number[];
  /** `subagent_runtime.max_running`: the subagent worker's slots and the per-response task limit. */
  readonly maxRunning: number;
  /** `subagents.max_total_per_run`: tasks one lead run may delegate (1..50). */
  readonly maxTotalPerRun: number;
  /** More scripted models for other cases (the lead-tool runs), configured beside the task models. */
  readonly extraModels?: readonly ScriptedModel[];
  /** `lead_runs.model_steps`: the lead's model steps as regular (default) or local activities. */
  readonly modelSteps?: ModelSteps;
  /** Tool calls (`ls`) each subagent makes, one per turn, before it answers. @default 0 */
  readonly subagentToolCalls?: number;
  /** `worker.workflow_stack_trace_limit`: frames recorded per workflow promise; null = V8's default. */
  readonly workflowStackTraceLimit: number | null;
}

/** A scripted model of the benchmark config: its name and its scenario (written to a YAML file). */
export interface ScriptedModel {
  readonly name: string;
  readonly scenario: Record<string, unknown>;
}

/** How N tasks are spread: lead runs started at once, each delegating `tasksPerRun[i]` tasks. */
export interface RunPlan {
  readonly tasks: number;
  readonly tasksPerRun: readonly number[];
  /** Task calls per lead response (the run's `maxConcurrent`). */
  readonly callsPerTurn: number;
  /** Lead model turns per run: ceil(tasks / callsPerTurn) delegating turns plus the final answer. */
  readonly leadTurnsPerRun: readonly number[];
}

/** Outcome of one measured deerflow repetition. */
export interface DeerflowRepetition {
  readonly workflowIds: readonly string[];
}

/** DeerFlow workers on the shared dev server, ready to run N-task lead runs. */
export interface DeerflowBench {
  readonly loaded: LoadedConfig;
  /** The client the task runs use, for cases that start runs of their own. */
  readonly client: DeerFlowClient;
  /** The Temporal client under {@link client}: on the workers' connection, so its starts can be eager. */
  readonly temporal: Client;
  plan(tasks: number): RunPlan;
  /** Starts the planned lead runs at once and waits until all completed with every task completed. */
  run(tasks: number): Promise<DeerflowRepetition>;
  close(): Promise<void>;
}

/** What every scripted subagent answers (its one turn). */
export const SUBAGENT_ANSWER = 'done';

/** The prompt of the lead's `index`-th task call, which the subagent gets as its task message. */
export function benchTaskPrompt(index: number): string {
  return `Bench task ${index}: answer at once.`;
}

/** Splits `tasks` into as few runs as the per-run limit allows, as evenly as possible. */
export function splitIntoRuns(tasks: number, maxTotalPerRun: number): number[] {
  const runs = Math.ceil(tasks / maxTotalPerRun);
  const base = Math.floor(tasks / runs);
  return Array.from({ length: runs }, (_, i) => base + (i < tasks % runs ? 1 : 0));
}

/** The scripted model of runs delegating `tasksInRun` tasks (the lead's model, and its subagents'). */
export function modelNameFor(tasksInRun: number): string {
  return `bench-k${tasksInRun}`;
}

/** The folder a subagent's `index`-th tool call lists (none exists: each call is answered at once, distinct for loop detection). */
function benchListedFolder(index: number): string {
  return `/mnt/user-data/workspace/bench-${index}`;
}

/**
 * Lead scenario for one run of `tasksInRun` tasks: delegating turns of at most `callsPerTurn` task
 * calls, then a final answer. Every subagent (`*` rule) answers at once: `toolCalls` turns that
 * each list a folder, then its answer.
 */
function scenarioFor(tasksInRun: number, callsPerTurn: number, toolCalls: number): Record<string, unknown> {
  const lead: Record<string, unknown>[] = [];
  for (let first = 0; first < tasksInRun; first += callsPerTurn) {
    const last = Math.min(first + callsPerTurn, tasksInRun);
    lead.push({
      tool_calls: Array.from({ length: last - first }, (_, offset) => {
        const index = first + offset;
        return {
          name: 'task',
          args: { subagent_type: 'general-purpose', description: `Bench task ${index}`, prompt: benchTaskPrompt(index) },
        };
      }),
      usage: { input_tokens: 100, output_tokens: 10 },
    });
  }
  lead.push({ content: `All ${tasksInRun} tasks are done.`, usage: { input_tokens: 100, output_tokens: 10 } });
  return {
    lead,
    subagents: [
      {
        match: '*',
        turns: [
          ...Array.from({ length: toolCalls }, (_, index) => ({ tool_calls: [{ name: 'ls', args: { path: benchListedFolder(index) } }], usage: { input_tokens: 50, output_tokens: 5 } })),
          { content: SUBAGENT_ANSWER, usage: { input_tokens: 50, output_tokens: 5 } },
        ],
      },
    ],
  };
}

/**
 * Writes a config.yaml with one scripted model per distinct run size (a scenario's lead list is
 * fixed, so the run's model picks how many tasks it delegates) plus `extraModels`, opens a SQLite store in `dir` and
 * starts the real deerflow workers (`createWorkers`) on the shared connection.
 */
export async function createDeerflowBench(options: DeerflowBenchOptions): Promise<DeerflowBench> {
  const callsPerTurn = Math.min(options.maxRunning, MAX_CONCURRENT_CEILING);
  const plan = (tasks: number): RunPlan => {
    const tasksPerRun = splitIntoRuns(tasks, options.maxTotalPerRun);
    return { tasks, tasksPerRun, callsPerTurn, leadTurnsPerRun: tasksPerRun.map((k) => Math.ceil(k / callsPerTurn) + 1) };
  };
  const runSizes = [...new Set(options.taskCounts.flatMap((n) => plan(n).tasksPerRun))].sort((a, b) => a - b);
  const models: ScriptedModel[] = [
    ...runSizes.map((size) => ({ name: modelNameFor(size), scenario: scenarioFor(size, callsPerTurn, options.subagentToolCalls ?? 0) })),
    ...(options.extraModels ?? []),
  ];
  for (const model of models) writeFileSync(join(options.dir, `scenario-${model.name}.yaml`), stringify(model.scenario));
  const dataDir = join(options.dir, 'data');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(
    join(options.dir, 'config.yaml'),
    stringify({
      models: models.map((model) => ({ name: model.name, provider: 'scripted', script: `./scenario-${model.name}.yaml` })),
      default_model: modelNameFor(runSizes[0] ?? 1),
      subagents: { max_total_per_run: options.maxTotalPerRun },
      // One lead response carries up to max_total_per_run task calls, as many as the per-tool
      // frequency guard's default hard limit (50), which would stop the run before it delegates.
      loop_detection: { tool_freq_overrides: { task: { warn: 1000, hard_limit: 1000 } } },
      subagent_runtime: { max_running: options.maxRunning },
      lead_runs: { model_steps: options.modelSteps ?? 'activity' },
      store: { data_dir: dataDir },
      worker: { workflow_stack_trace_limit: options.workflowStackTraceLimit },
    }),
  );
  const loaded = loadConfig({ path: join(options.dir, 'config.yaml'), env: {} });
  const stores: Stores = await openConfiguredStores(loaded.config.store);
  let workers: DeerflowWorkers;
  try {
    workers = await createWorkers({ connection: options.connection, namespace: options.namespace, loaded, stores });
  } catch (err) {
    await stores.close();
    throw err;
  }
  const running = workers.run();
  const temporal = new Client({ connection: options.connection, namespace: options.namespace });
  const client = new DeerFlowClient(temporal, loaded.config, { agents: stores.agents }, { eagerStart: true });
  let sequence = 0;

  return {
    loaded,
    client,
    temporal,
    plan,
    async run(tasks) {
      const { tasksPerRun } = plan(tasks);
      const batch = ++sequence;
      const started = await Promise.all(
        tasksPerRun.map((k, i) =>
          client.startRun({
            message: `Run ${k} bench tasks in parallel.`,
            threadId: `bench-${batch}-${i}`,
            modelName: modelNameFor(k),
            maxConcurrent: callsPerTurn,
            maxTotal: k,
          }),
        ),
      );
      const states = await Promise.all(started.map((s) => s.handle.result() as Promise<LeadRunState>));
      states.forEach((state, i) => checkRun(state, tasksPerRun[i] ?? 0, started[i]?.workflowId ?? '?'));
      return { workflowIds: started.map((s) => s.workflowId) };
    },
    async close() {
      workers.shutdown();
      await running;
      await stores.close();
    },
  };
}

/** A benchmark of failed runs measures nothing: insist that every task really completed. */
function checkRun(state: LeadRunState, expectedTasks: number, workflowId: string): void {
  const completed = state.tasks.filter((t) => t.status === 'completed' && t.resultBrief === SUBAGENT_ANSWER).length;
  if (state.status !== 'completed' || state.tasks.length !== expectedTasks || completed !== expectedTasks) {
    const statuses = state.tasks.map((t) => `${t.status}${t.error ? ` (${t.error})` : ''}`).join(', ');
    throw new Error(
      `lead run ${workflowId} ended ${state.status} with ${completed}/${expectedTasks} tasks completed ` +
        `(${state.tasks.length} delegated${state.error ? `; ${state.error}` : ''}): ${statuses}`,
    );
  }
}
