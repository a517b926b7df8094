/**
 * Orchestration overhead benchmark: wall time per subagent task of deerflow (scripted model, zero
 * latency) as a ratio against a raw Temporal activity round trip measured in the same run on the
 * same embedded dev server, against that plus the same subagent run in-process (no Temporal, no
 * store), and against raw Temporal in the shape of deerflow's plan (its runs, model steps and
 * tasks as no-op activities); for one N, the CPU per task by phase from a profiled repetition.
 * See bench/README.md.
 *
 * Also a lead making direct tool calls (`runLeadTool` activities), in ms per call against raw
 * activities of the same shape (bench/lead-tools.ts).
 *
 *   npm run bench -- [--tasks 1,10,100] [--reps 10] [--warmup <n>] [--max-running 64] [--max-total 50] [--profile <n> | --no-profile]
 *                    [--server-requests 3]
 *                    [--lead-tool-calls 20] [--lead-tool-reps 3] [--lead-tool-warmup 1] [--no-lead-tools]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { Command, Option } from 'commander';
import { DEFAULT_WORKFLOW_STACK_TRACE_LIMIT } from '../src/config';
import { startDevServer } from '../src/devserver';
import { createBaselineWorkers, runBaseline, runBaselineLeadShape } from './baseline';
import { breakdownText, profileRepetition, type CpuBreakdown } from './cpu-breakdown';
import { ModelStepsSchema, type ModelSteps } from '../src/contracts';
import { createDeerflowBench, MAX_TOTAL_PER_RUN_CEILING, modelNameFor, type DeerflowBench, type RunPlan } from './deerflow';
import { profileRepetitions, profileText } from './history';
import { runInProcessAgents } from './in-process-agent';
import {
  DEFAULT_LEAD_TOOL_CALLS,
  leadToolHistoryReport,
  leadToolModels,
  leadToolReport,
  MAX_LEAD_TOOL_CALLS,
  measureLeadTools,
  type LeadToolMeasurement,
  type LeadToolOptions,
} from './lead-tools';
import { installBenchRuntime } from './logging';
import { processCpuReader } from './process-cpu';
import { measureInterleaved, perUnit, variant, type Variant } from './measure';
import { countServerRequests, serverRequestsTable, type ServerRequests } from './server-requests';
import { fixed, median, medMin, ratio, ratioToSum, table } from './stats';
import { intOption, intOrNullOption, orNull } from './int-option';

/** Most tool calls a subagent makes in `--subagent-tool-calls`: below loop detection's per-tool warning (30 calls of one tool). */
const MAX_SUBAGENT_TOOL_CALLS = 25;

/**
 * Tasks each variant runs unmeasured per N by default. A worker in service runs in steady state;
 * two repetitions of one task left deerflow's code still being compiled and its one-task runs
 * ~8% slower than after a hundred (bench/FINDINGS.md, "Steady state before measuring").
 */
const WARMUP_TASKS = 100;
const MIN_WARMUP_REPS = 2;

/** Unmeasured repetitions per variant at N tasks: `--warmup`, else enough for {@link WARMUP_TASKS} tasks. */
function warmupReps(explicit: number | null, tasks: number): number {
  return explicit ?? Math.max(MIN_WARMUP_REPS, Math.ceil(WARMUP_TASKS / tasks));
}

interface BenchOptions {
  readonly tasks: number[];
  readonly reps: number;
  /** Unmeasured repetitions per N and variant, or null for {@link warmupReps}'s default. */
  readonly warmup: number | null;
  readonly maxRunning: number;
  readonly maxTotal: number;
  /** `lead_runs.model_steps` of the deerflow workers. */
  readonly modelSteps: ModelSteps;
  /** `worker.workflow_stack_trace_limit` of the deerflow workers: null = V8's default. */
  readonly workflowStackTraceLimit: number | null;
  /** Tool calls each subagent makes before it answers (0: it answers at once). */
  readonly subagentToolCalls: number;
  readonly history: boolean;
  /** The N whose deerflow variant gets a profiled repetition (CPU by phase), or null with `--no-profile`. */
  readonly profileTasks: number | null;
  /** Repetitions run one after another under the profiler: more samples where one repetition is short. */
  readonly profileReps: number;
  /** Rounds of one raw and one deerflow repetition per N counted by the dev server's counters; 0 skips them. */
  readonly serverRequestRounds: number;
  /** The lead-tool case, or null with `--no-lead-tools`. */
  readonly leadTools: LeadToolOptions | null;
}

interface Measurement {
  readonly tasks: number;
  readonly plan: RunPlan;
  readonly rawMatched: Variant;
  readonly rawPerN: Variant;
  /** Raw Temporal in the shape of deerflow's plan: its lead runs, model steps and tasks as no-op activities. */
  readonly rawLeadShape: Variant;
  readonly deerflow: Variant;
  /** The same scripted subagent task run with `createAgent` in this process: no Temporal, no store. */
  readonly inProcess: Variant;
  /** {@link inProcess} with deerflow's subagent middleware chain. */
  readonly inProcessMiddleware: Variant;
  /** What the dev server did per task in the counted rounds, by variant (raw slots=max-running, raw lead shape, deerflow); empty when skipped. */
  readonly serverRequests: ReadonlyMap<Variant, readonly ServerRequests[]>;
}

function taskList(raw: string): number[] {
  const values = raw.split(',').map((part) => intOption('each task count', 1, 1000)(part.trim()));
  return [...new Set(values)].sort((a, b) => a - b);
}

function parseOptions(argv: readonly string[]): BenchOptions {
  const program = new Command()
    .name('npm run bench --')
    .description('Orchestration overhead per subagent task and per direct lead tool call vs raw Temporal activities (same run, same server).')
    .option('--tasks <list>', 'comma-separated task counts N', taskList, [1, 10, 100])
    .option('--reps <n>', 'measured repetitions per N and variant', intOption('--reps', 1, 1000), 10)
    .option('--warmup <n>', `unmeasured repetitions per N and variant first (default: enough for ${WARMUP_TASKS} tasks, at least ${MIN_WARMUP_REPS})`, intOption('--warmup', 0, 1000))
    .option('--max-running <n>', 'subagent_runtime.max_running: deerflow subagent slots (and task calls per lead turn)', intOption('--max-running', 1, 64), 64)
    .option('--max-total <n>', 'subagents.max_total_per_run: tasks per lead run; more tasks use more concurrent runs', intOption('--max-total', 1, MAX_TOTAL_PER_RUN_CEILING), MAX_TOTAL_PER_RUN_CEILING)
    .addOption(new Option('--model-steps <how>', 'lead_runs.model_steps: the lead\'s model steps as regular or local activities').choices(ModelStepsSchema.options).default('activity'))
    .option('--workflow-stack-trace-limit <n>', `worker.workflow_stack_trace_limit: frames the SDK records per workflow promise, or null for V8's 10 (default: deerflow's ${DEFAULT_WORKFLOW_STACK_TRACE_LIMIT})`, intOrNullOption('--workflow-stack-trace-limit', 0, 100), DEFAULT_WORKFLOW_STACK_TRACE_LIMIT)
    .option('--subagent-tool-calls <n>', 'tool calls (ls) each subagent makes, one per turn, before it answers; the in-process anchors get its tools too', intOption('--subagent-tool-calls', 0, MAX_SUBAGENT_TOOL_CALLS), 0)
    .option('--no-history', 'skip the history breakdown (fetchHistory of the last repetition)')
    .option('--profile <n>', 'the task count N whose deerflow variant gets one extra profiled repetition: CPU per task by phase (default: the largest N)', intOption('--profile', 1, 1000))
    .option('--profile-reps <n>', 'repetitions run one after another under the profiler (more samples at a small N)', intOption('--profile-reps', 1, 1000), 1)
    .option('--no-profile', 'skip the profiled repetition')
    .option('--server-requests <rounds>', "rounds of one raw and one deerflow repetition per N, each counted by the dev server's request and task counters (0 skips them)", intOption('--server-requests', 0, 100), 3)
    .option('--lead-tool-calls <n>', 'direct tool calls (read_file) per lead run in the lead-tool case', intOption('--lead-tool-calls', 1, MAX_LEAD_TOOL_CALLS), DEFAULT_LEAD_TOOL_CALLS)
    .option('--lead-tool-reps <n>', 'measured repetitions per shape and variant of the lead-tool case', intOption('--lead-tool-reps', 1, 1000), 3)
    .option('--lead-tool-warmup <n>', 'unmeasured repetitions per shape and variant of the lead-tool case first', intOption('--lead-tool-warmup', 0, 100), 1)
    .option('--no-lead-tools', 'skip the lead-tool case (a lead making direct tool calls)')
    .showHelpAfterError();
  program.parse([...argv]);
  const o = program.opts<{
    tasks: number[];
    reps: number;
    warmup?: number;
    maxRunning: number;
    maxTotal: number;
    modelSteps: ModelSteps;
    workflowStackTraceLimit: number | 'null';
    subagentToolCalls: number;
    history: boolean;
    profile?: number | false;
    profileReps: number;
    serverRequests: number;
    leadToolCalls: number;
    leadToolReps: number;
    leadToolWarmup: number;
    leadTools: boolean;
  }>();
  if (typeof o.profile === 'number' && !o.tasks.includes(o.profile)) program.error(`--profile ${o.profile} is not one of --tasks ${o.tasks.join(',')}`);
  return {
    tasks: o.tasks,
    reps: o.reps,
    warmup: o.warmup ?? null,
    maxRunning: o.maxRunning,
    maxTotal: o.maxTotal,
    modelSteps: o.modelSteps,
    workflowStackTraceLimit: orNull(o.workflowStackTraceLimit),
    subagentToolCalls: o.subagentToolCalls,
    history: o.history,
    profileTasks: o.profile === false ? null : (o.profile ?? o.tasks.at(-1) ?? null),
    profileReps: o.profileReps,
    serverRequestRounds: o.serverRequests,
    leadTools: o.leadTools ? { calls: o.leadToolCalls, reps: o.leadToolReps, warmup: o.leadToolWarmup } : null,
  };
}

function planText(plan: RunPlan): string {
  const runs = plan.tasksPerRun.length;
  const sizes = [...new Set(plan.tasksPerRun)].join('/');
  const turns = [...new Set(plan.leadTurnsPerRun)].join('/');
  return `${runs} run${runs === 1 ? '' : 's'} x ${sizes} task${plan.tasks === 1 ? '' : 's'}, ${turns} lead turns`;
}

function report(options: BenchOptions, results: readonly Measurement[]): string {
  const matched = `raw slots=${options.maxRunning}`;
  const absolute = table(
    ['N', 'deerflow plan', `${matched} ms/task`, 'raw slots=N ms/task', 'raw lead shape ms/task', 'in-process ms/task', 'in-process+mw ms/task', 'deerflow ms/task', 'deerflow ms/run'],
    results.map((m) => [
      String(m.tasks),
      planText(m.plan),
      medMin(perUnit(m.rawMatched, m.tasks, 'wallMs')),
      medMin(perUnit(m.rawPerN, m.tasks, 'wallMs')),
      medMin(perUnit(m.rawLeadShape, m.tasks, 'wallMs')),
      medMin(perUnit(m.inProcess, m.tasks, 'wallMs')),
      medMin(perUnit(m.inProcessMiddleware, m.tasks, 'wallMs')),
      medMin(perUnit(m.deerflow, m.tasks, 'wallMs')),
      medMin(m.deerflow.samples.map((s) => s.wallMs), 0),
    ]),
  );
  const ratios = table(
    [
      'N',
      `deerflow / ${matched}`,
      'deerflow / raw slots=N',
      `deerflow / (${matched} + in-process)`,
      `deerflow / (${matched} + in-process+mw)`,
      'deerflow / raw lead shape',
      'deerflow / (raw lead shape + in-process+mw)',
    ],
    results.map((m) => {
      const d = perUnit(m.deerflow, m.tasks, 'wallMs');
      const raw = perUnit(m.rawMatched, m.tasks, 'wallMs');
      const shape = perUnit(m.rawLeadShape, m.tasks, 'wallMs');
      const withChain = perUnit(m.inProcessMiddleware, m.tasks, 'wallMs');
      return [
        String(m.tasks),
        ratio(d, raw),
        ratio(d, perUnit(m.rawPerN, m.tasks, 'wallMs')),
        ratioToSum(d, raw, perUnit(m.inProcess, m.tasks, 'wallMs')),
        ratioToSum(d, raw, withChain),
        ratio(d, shape),
        ratioToSum(d, shape, withChain),
      ];
    }),
  );
  const cpu = table(
    ['N', `${matched} CPU ms/task`, 'raw lead shape CPU', 'in-process CPU', 'in-process+mw CPU', 'deerflow CPU ms/task', `deerflow / ${matched}`, `deerflow / (${matched} + in-process)`],
    results.map((m) => {
      const d = median(perUnit(m.deerflow, m.tasks, 'cpuMs'));
      const r = median(perUnit(m.rawMatched, m.tasks, 'cpuMs'));
      const a = median(perUnit(m.inProcess, m.tasks, 'cpuMs'));
      return [
        String(m.tasks),
        fixed(r, 2),
        fixed(median(perUnit(m.rawLeadShape, m.tasks, 'cpuMs')), 2),
        fixed(a, 2),
        fixed(median(perUnit(m.inProcessMiddleware, m.tasks, 'cpuMs')), 2),
        fixed(d, 2),
        `${fixed(d / r, 1)}x`,
        `${fixed(d / (r + a), 1)}x`,
      ];
    }),
  );
  const onCores = table(
    [
      'N',
      `${matched} server CPU`,
      'raw lead shape server CPU',
      'deerflow server CPU',
      `${matched} total CPU`,
      'raw lead shape total CPU',
      'deerflow total CPU',
      `total: deerflow / ${matched}`,
      `total: deerflow / (${matched} + in-process)`,
    ],
    results.map((m) => {
      const serverOf = (v: Variant) => median(perUnit(v, m.tasks, 'serverCpuMs'));
      const totalOf = (v: Variant) => median(v.samples.map((s) => (s.cpuMs + s.serverCpuMs) / m.tasks));
      const raw = totalOf(m.rawMatched);
      const deerflow = totalOf(m.deerflow);
      return [
        String(m.tasks),
        fixed(serverOf(m.rawMatched), 2),
        fixed(serverOf(m.rawLeadShape), 2),
        fixed(serverOf(m.deerflow), 2),
        fixed(raw, 2),
        fixed(totalOf(m.rawLeadShape), 2),
        fixed(deerflow, 2),
        `${fixed(deerflow / raw, 1)}x`,
        `${fixed(deerflow / (raw + median(perUnit(m.inProcess, m.tasks, 'cpuMs'))), 1)}x`,
      ];
    }),
  );
  return [
    `Wall time per task, ms (median / min over ${options.reps} reps; every run includes start, all tasks and completion;`,
    'raw lead shape = no-op activities in the shape of the deerflow plan: its runs, model steps and tasks, started eagerly;',
    'in-process = the same subagent task with createAgent in this process, no Temporal, no store; +mw = with deerflow\'s subagent middleware chain):',
    absolute,
    '',
    'Overhead ratio (median of deerflow / median of the anchor, then min / min; a sum anchor adds the medians, then the mins):',
    ratios,
    '',
    'CPU time per task of this process (all workers + client; the dev server is a separate process), median:',
    cpu,
    '',
    `CPU time per task of the dev server process, and the total of both processes (the cores the wall time shares), ms, median (${cpus().length} cores):`,
    onCores,
  ].join('\n');
}

function serverRequestsReport(rounds: number, results: readonly Measurement[]): string {
  const head =
    `What the dev server did per task (its Prometheus counters over one repetition, median of ${rounds} rounds after the measured ones; ` +
    'a repetition also pays for timers the ones before it left behind):';
  const tables = results.map(
    (m) => `N=${m.tasks}:\n${serverRequestsTable('task', [...m.serverRequests].map(([v, samples]) => ({ label: v.label, samples })))}`,
  );
  return [head, ...tables].join('\n\n');
}

async function historyReport(client: Client, results: readonly Measurement[]): Promise<string> {
  const parts = [
    'Where the time goes (histories of every measured repetition; span = a repetition\'s first to last history event, as the server timed them;',
    'queue = scheduled->started, exec = started->closed, busy = wall time with at least one such activity scheduled or running, summed over the runs):',
  ];
  for (const m of results) {
    const reps = m.deerflow.workflowIds.length;
    const deerflow = await profileRepetitions(client, m.deerflow.workflowIds);
    const raw = await profileRepetitions(client, m.rawMatched.workflowIds);
    const shape = await profileRepetitions(client, m.rawLeadShape.workflowIds);
    const spanRatio = ratio(deerflow.repetitionSpansMs, raw.repetitionSpansMs);
    const shapeRatio = ratio(deerflow.repetitionSpansMs, shape.repetitionSpansMs);
    parts.push(
      '',
      `N=${m.tasks}: span deerflow / ${m.rawMatched.label} ${spanRatio}, deerflow / ${m.rawLeadShape.label} ${shapeRatio} (median / min)`,
      profileText(`deerflow (${planText(m.plan)})`, deerflow, m.tasks * reps),
      profileText(m.rawMatched.label, raw, m.tasks * m.rawMatched.workflowIds.length),
      profileText(m.rawLeadShape.label, shape, m.tasks * m.rawLeadShape.workflowIds.length),
    );
  }
  return parts.join('\n');
}

const CLEANUP_STEP_TIMEOUT_MS = 15_000;

/**
 * Runs cleanups once, last registered first; a failing or hanging cleanup does not stop the others.
 * After a signal only the steps outside this process run (the dev server, the temp folder): the
 * workers die with the process, and the dev server's own signal hook has already stopped the server
 * they would need for a graceful shutdown.
 */
function cleanupStack() {
  const steps: Array<{ name: string; fn: () => Promise<void>; external: boolean }> = [];
  let done: Promise<void> | null = null;
  return {
    push(name: string, fn: () => Promise<void>, external = false) {
      steps.push({ name, fn, external });
    },
    run(interrupted = false): Promise<void> {
      done ??= (async () => {
        for (const step of [...steps].reverse()) {
          if (interrupted && !step.external) continue;
          let timer: NodeJS.Timeout | undefined;
          const timeout = new Promise<void>((_, reject) => {
            timer = setTimeout(() => reject(new Error(`timed out after ${CLEANUP_STEP_TIMEOUT_MS} ms`)), CLEANUP_STEP_TIMEOUT_MS);
          });
          await Promise.race([step.fn(), timeout])
            .catch((err: unknown) => console.error(`cleanup (${step.name}) failed: ${String(err)}`))
            .finally(() => clearTimeout(timer));
        }
      })();
      return done;
    },
  };
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv);
  installBenchRuntime();
  const cleanup = cleanupStack();
  // `on`, not `once`: the dev server's own signal hook re-raises the signal (killing us before the
  // cleanup ran) when it finds no other listener. A second Ctrl-C exits at once.
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) process.exit(130);
    interrupted = true;
    console.error(`\n${signal}: stopping the dev server and removing the temp folder ...`);
    void cleanup.run(true).finally(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const log = (line: string) => console.error(line);

  try {
    const startedAt = performance.now();
    log('starting the embedded Temporal dev server ...');
    const server = await startDevServer();
    cleanup.push('dev server', () => server.stop(), true);
    const serverCpu = processCpuReader(server.pid);
    const dir = mkdtempSync(join(tmpdir(), 'deerflow-bench-'));
    cleanup.push('temp dir', async () => rmSync(dir, { recursive: true, force: true }), true);
    const connection = await Connection.connect({ address: server.address });
    cleanup.push('client connection', () => connection.close());
    const client = new Client({ connection, namespace: server.namespace });
    const nativeConnection = await NativeConnection.connect({ address: server.address });
    cleanup.push('worker connection', () => nativeConnection.close());

    log('bundling workflows and starting workers ...');
    const leadToolSlots = options.leadTools ? [options.leadTools.calls] : [];
    const baselineWorkers = await createBaselineWorkers(nativeConnection, server.namespace, [options.maxRunning, ...options.tasks, ...leadToolSlots]);
    const baselineRunning = baselineWorkers.run();
    cleanup.push('baseline workers', async () => {
      baselineWorkers.shutdown();
      await baselineRunning;
    });
    const deerflow: DeerflowBench = await createDeerflowBench({
      connection: nativeConnection,
      namespace: server.namespace,
      dir,
      taskCounts: options.tasks,
      maxRunning: options.maxRunning,
      maxTotalPerRun: options.maxTotal,
      modelSteps: options.modelSteps,
      workflowStackTraceLimit: options.workflowStackTraceLimit,
      subagentToolCalls: options.subagentToolCalls,
      extraModels: options.leadTools ? leadToolModels(options.leadTools.calls) : [],
    });
    cleanup.push('deerflow workers', () => deerflow.close());

    const machine = `${cpus().length} CPU(s) (${cpus()[0]?.model.trim() ?? 'unknown'}), Node ${process.version}`;
    console.log(`deerflow orchestration overhead benchmark: ${machine}`);
    console.log(
      `dev server ${server.address}; subagent_runtime.max_running=${options.maxRunning}, ` +
        `subagents.max_total_per_run=${options.maxTotal}, lead_runs.model_steps=${options.modelSteps}, ` +
        `worker.workflow_stack_trace_limit=${deerflow.loaded.config.worker.workflow_stack_trace_limit ?? 'null'}, ` +
        `${options.subagentToolCalls} tool call(s) per subagent; ` +
        `${options.warmup ?? `max(${MIN_WARMUP_REPS}, ceil(${WARMUP_TASKS} / N))`} warm-up + ${options.reps} measured reps per N and variant, interleaved`,
    );
    console.log('');

    const results: Measurement[] = [];
    let profiled: { tasks: number; reps: number; breakdown: CpuBreakdown; medianCpuMs: number } | null = null;
    for (const tasks of options.tasks) {
      const rawMatched = variant(`raw slots=${options.maxRunning}`, async () => [await runBaseline(client, tasks, options.maxRunning)]);
      const rawPerN = tasks === options.maxRunning ? rawMatched : variant(`raw slots=${tasks}`, async () => [await runBaseline(client, tasks, tasks)]);
      const rawLeadShape = variant('raw lead shape', () => runBaselineLeadShape(deerflow.temporal, deerflow.plan(tasks), options.maxRunning));
      const df = variant('deerflow', async () => (await deerflow.run(tasks)).workflowIds);
      // The subagents of this N's runs answer from this model's scenario.
      const modelName = modelNameFor(deerflow.plan(tasks).tasksPerRun[0] ?? tasks);
      const inProcess = variant('in-process agent', async () => {
        await runInProcessAgents(deerflow.loaded, modelName, tasks, 'plain', options.subagentToolCalls > 0);
        return [];
      });
      const inProcessMiddleware = variant('in-process agent + middleware', async () => {
        await runInProcessAgents(deerflow.loaded, modelName, tasks, 'middleware', options.subagentToolCalls > 0);
        return [];
      });
      const measured = [...new Set([rawMatched, rawPerN, rawLeadShape, df, inProcess, inProcessMiddleware])];
      const phaseStart = performance.now();
      const warmup = warmupReps(options.warmup, tasks);
      await measureInterleaved(measured, warmup, options.reps, serverCpu);
      log(`N=${tasks}: ${warmup} warm-up + ${options.reps} reps x ${measured.length} variants in ${fixed((performance.now() - phaseStart) / 1000, 1)} s`);
      const rounds = options.serverRequestRounds;
      if (rounds > 0) log(`N=${tasks}: ${rounds} rounds of raw, raw lead shape and deerflow counted by the dev server ...`);
      // The idle window runs nothing: what the server does anyway in a window as long (pollers, timers).
      const idle = variant('idle window', async () => []);
      const serverRequests = rounds > 0 ? await countServerRequests(server.metricsUrl, [rawMatched, rawLeadShape, df, idle], tasks, rounds) : new Map<Variant, ServerRequests[]>();
      results.push({ tasks, plan: deerflow.plan(tasks), rawMatched, rawPerN, rawLeadShape, deerflow: df, inProcess, inProcessMiddleware, serverRequests });
      if (tasks === options.profileTasks) {
        const reps = options.profileReps;
        log(`N=${tasks}: ${reps === 1 ? 'one more deerflow repetition' : `${reps} more deerflow repetitions`} under the CPU profiler ...`);
        const breakdown = await profileRepetition(async () => {
          for (let rep = 0; rep < reps; rep++) await deerflow.run(tasks);
        });
        profiled = { tasks, reps, breakdown, medianCpuMs: median(perUnit(df, tasks, 'cpuMs')) };
      }
    }

    let leadTools: LeadToolMeasurement[] = [];
    if (options.leadTools) {
      const phaseStart = performance.now();
      leadTools = await measureLeadTools(client, deerflow, options.leadTools);
      const { calls, warmup, reps } = options.leadTools;
      log(`lead tools (${calls} calls): ${warmup + reps} reps x 4 variants in ${fixed((performance.now() - phaseStart) / 1000, 1)} s`);
    }

    console.log(report(options, results));
    if (options.serverRequestRounds > 0) {
      console.log('');
      console.log(serverRequestsReport(options.serverRequestRounds, results));
    }
    if (profiled) {
      console.log('');
      console.log(breakdownText(`deerflow N=${profiled.tasks}`, profiled.breakdown, profiled.tasks * profiled.reps, profiled.medianCpuMs, { reps: profiled.reps }));
    }
    if (options.leadTools) {
      console.log('');
      console.log(leadToolReport(options.leadTools, leadTools));
    }
    if (options.history) {
      console.log('');
      console.log(await historyReport(client, results));
      if (options.leadTools) {
        console.log('');
        console.log(await leadToolHistoryReport(client, leadTools));
      }
    }
    console.log('');
    console.log(`total ${fixed((performance.now() - startedAt) / 1000, 1)} s`);
  } finally {
    await cleanup.run();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exitCode = 1;
});
