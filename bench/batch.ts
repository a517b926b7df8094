/**
 * Batch throughput benchmark: items/s of a deerflow batch (scripted model, zero latency) as a ratio
 * against raw Temporal child-workflow + activity throughput with the same window, and against the
 * same children whose activity runs the subagent task with an in-process agent, measured in the
 * same run. Each measured batch runs on a dev server of its own unless `--shared-server`. See
 * bench/README.md.
 *
 *   npm run bench:batch -- [--items 5000] [--live 100] [--running 8] [--rounds 1] [--warmup-items 200] [--shared-server] [--no-history] [--profile <items>]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { Command } from 'commander';
import { stringify } from 'yaml';
import { batchWorkflowId, DeerFlowClient } from '../src/client';
import { SA_BATCH_ID } from '../src/contracts';
import { DEFAULT_WORKFLOW_STACK_TRACE_LIMIT, loadConfig } from '../src/config';
import { startDevServer } from '../src/devserver';
import { openConfiguredStores } from '../src/store';
import { createWorkers } from '../src/worker/create-workers';
import { BASELINE_WORKFLOW_TASK_QUEUE, baselineActivityTaskQueue, createBaselineWorkers } from './baseline';
import type { BaselineActivityName } from './baseline-activities';
import type { BaselineBatchInput } from './baseline-workflows';
import { batchHistoryReport, HISTORY_SAMPLE } from './batch-history';
import { breakdownText, profileRepetition } from './cpu-breakdown';
import { runInProcessAgents } from './in-process-agent';
import { intOption, intOrNullOption, orNull } from './int-option';
import { installBenchRuntime } from './logging';
import { rotated, timedRun } from './measure';
import { processCpuReader } from './process-cpu';
import { serverRequestsDuring, serverRequestsTable, type ServerRequests } from './server-requests';
import { fixed, median, table } from './stats';

interface Options {
  readonly items: number;
  readonly live: number;
  readonly running: number;
  /** Times the three variants run, one after the other each time, in a rotated order (see `rotated`); ratios are taken per round. */
  readonly rounds: number;
  /** Items of one unmeasured batch of a variant before it is measured (0: none). */
  readonly warmupItems: number;
  /** All variants and rounds on one dev server, rather than a fresh one for each measured batch. */
  readonly sharedServer: boolean;
  readonly history: boolean;
  /** `worker.workflow_stack_trace_limit` of the deerflow workers: null = V8's default. */
  readonly workflowStackTraceLimit: number | null;
  /** Items of one more raw and one more deerflow batch, each run under the CPU profiler (CPU per item by phase), if any. */
  readonly profile?: number;
}

function parseOptions(argv: readonly string[]): Options {
  const program = new Command()
    .name('npm run bench:batch --')
    .description('Batch items/s vs raw Temporal child workflows + activities with the same window (same run, a fresh dev server per measured batch).')
    .option('--items <n>', 'items in the batch (and children in the baseline)', intOption('--items', 1, 100_000), 5000)
    .option('--live <n>', 'max_live_items of the batch = children in flight in the baseline', intOption('--live', 1, 1000), 100)
    .option('--running <n>', 'max_running_items = subagent_runtime.max_running = baseline activity slots', intOption('--running', 1, 64), 8)
    .option('--rounds <n>', 'run the three variants this many times, each round in a rotated order (a multiple of 3 puts each in each place equally often), and report the median of the per-round ratios', intOption('--rounds', 1, 20), 1)
    .option('--warmup-items <n>', 'items of one unmeasured batch of a variant before it is measured, so that it runs compiled code (0: none)', intOption('--warmup-items', 0, 100_000), 200)
    .option('--shared-server', 'run every variant and round on one dev server (its database grows with every batch, and a variant pays for what the ones before it left), warming each variant up once', false)
    .option('--workflow-stack-trace-limit <n>', `worker.workflow_stack_trace_limit of the deerflow workers: frames the SDK records per workflow promise, or null for V8's 10 (default: deerflow's ${DEFAULT_WORKFLOW_STACK_TRACE_LIMIT})`, intOrNullOption('--workflow-stack-trace-limit', 0, 100), DEFAULT_WORKFLOW_STACK_TRACE_LIMIT)
    .option('--no-history', `skip the step times read from the histories (up to ${HISTORY_SAMPLE} items per variant)`)
    .option('--profile <items>', 'one more raw and one more deerflow batch of this many items, each under the CPU profiler: CPU per item by thread and phase', intOption('--profile', 1, 100_000))
    .showHelpAfterError();
  program.parse([...argv]);
  const options = program.opts<Omit<Options, 'workflowStackTraceLimit'> & { workflowStackTraceLimit: number | 'null' }>();
  return { ...options, workflowStackTraceLimit: orNull(options.workflowStackTraceLimit) };
}

interface Sample {
  readonly round: number;
  readonly label: string;
  readonly wallMs: number;
  readonly cpuMs: number;
  /** The dev server's CPU time over the same span; NaN where it cannot be read. */
  readonly serverCpuMs: number;
  /** The dev server's requests over the same span, per item. */
  readonly serverRequests: ServerRequests;
  readonly note: string;
}

/** One round: the three variants, measured back to back. */
interface Round {
  readonly raw: Sample;
  readonly rawAgent: Sample;
  readonly deerflow: Sample;
}

type VariantKey = keyof Round;

interface BatchVariant {
  readonly key: VariantKey;
  readonly label: string;
}

const VARIANTS: readonly BatchVariant[] = [
  { key: 'raw', label: 'raw child workflow + activity' },
  { key: 'rawAgent', label: 'raw + in-process agent' },
  { key: 'deerflow', label: 'deerflow batch' },
];

/** What a batch is run for; each purpose has ids of its own, so that the history report samples measured batches only. */
type BatchPurpose = 'measured' | 'warmup' | 'profiled';

/**
 * Id prefixes: the raw variants' parent workflow ids (their children's ids start with the parent's),
 * deerflow's batch ids (its items carry it as `DeerflowBatchId`).
 */
const ID_PREFIXES: Readonly<Record<VariantKey, Readonly<Record<BatchPurpose, string>>>> = {
  raw: { measured: 'bench-baseline-batch-', warmup: 'bench-warmup-raw-batch-', profiled: 'bench-profiled-raw-batch-' },
  rawAgent: { measured: 'bench-baseline-agent-batch-', warmup: 'bench-warmup-agent-batch-', profiled: 'bench-profiled-agent-batch-' },
  deerflow: { measured: 'bench_batch_', warmup: 'bench_warmup_batch_', profiled: 'bench_profiled_batch_' },
};

/** `value` of each round, and its median when there are several (the machine's noise moves single rounds by ±10%). */
function perRound(rounds: readonly Round[], value: (round: Round) => number): string {
  const values = rounds.map(value);
  if (values.length === 1) return `${fixed(values[0]!, 2)}x`;
  return `${fixed(median(values), 2)}x, median of ${values.length} rounds (each: ${values.map((v) => fixed(v, 2)).join(', ')})`;
}

interface ServerReaders {
  readonly cpu: () => number | null;
  readonly metricsUrl: string;
}

/** A dev server with what every variant runs on it: deerflow's workers and stores, the baseline's workers, the clients. */
interface BenchServer {
  readonly readers: ServerReaders;
  /** Runs one batch of the variant to its end; returns a note for the table. */
  readonly batch: (key: VariantKey, purpose: BatchPurpose, items: number) => Promise<string>;
  /** Where the measured batches' time went, from their histories on this server (null: the variant has no report). */
  readonly historyReport: (key: VariantKey) => Promise<string | null>;
  close(): Promise<void>;
}

/** Starts a dev server and the workers on it, with deerflow's config and stores in `dir` (created). */
async function openBenchServer(options: Options, dir: string): Promise<BenchServer> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'scenario.yaml'), stringify({ subagents: [{ match: '*', turns: [{ content: 'done' }] }] }));
  writeFileSync(
    join(dir, 'config.yaml'),
    stringify({
      models: [{ name: 'bench', provider: 'scripted', script: './scenario.yaml' }],
      subagent_runtime: { max_running: options.running, max_queued: 10_000 },
      subagent_batches: { enabled: true, max_items_per_batch: 100_000, max_live_items_per_batch: 1000 },
      worker: { workflow_stack_trace_limit: options.workflowStackTraceLimit },
    }),
  );
  const loaded = loadConfig({ path: join(dir, 'config.yaml'), env: {} });
  const server = await startDevServer();
  const closers: (() => Promise<void>)[] = [() => server.stop()];
  const close = async () => {
    for (const closer of [...closers].reverse()) await closer();
  };
  try {
    const connection = await NativeConnection.connect({ address: server.address });
    closers.push(() => connection.close());
    const clientConnection = await Connection.connect({ address: server.address });
    closers.push(() => clientConnection.close());
    const temporal = new Client({ connection: clientConnection, namespace: server.namespace });
    const stores = await openConfiguredStores(loaded.config.store);
    closers.push(() => stores.close());
    const workers = await createWorkers({ connection, namespace: server.namespace, loaded, stores });
    // The raw + agent anchor: each child's activity runs the subagent task as the tasks benchmark's in-process anchor does.
    const agentTask = async (index: number) => {
      await runInProcessAgents(loaded, 'bench', 1, 'plain');
      return index;
    };
    const baseline = await createBaselineWorkers(connection, server.namespace, [options.running], agentTask);
    const running = Promise.all([workers.run(), baseline.run()]);
    closers.push(async () => {
      workers.shutdown();
      baseline.shutdown();
      await running;
    });
    const client = new DeerFlowClient(temporal, loaded.config, { agents: stores.agents, events: stores.events, batches: stores.batches });

    const rawBatch = async (activity: BaselineActivityName, idPrefix: string, count: number) => {
      const input: BaselineBatchInput = { count, window: options.live, activityTaskQueue: baselineActivityTaskQueue(options.running), activity };
      const done = await temporal.workflow.execute('baselineWindowedBatchWorkflow', {
        taskQueue: BASELINE_WORKFLOW_TASK_QUEUE,
        workflowId: `${idPrefix}${randomUUID()}`,
        args: [input],
      });
      if (done !== count) throw new Error(`baseline completed ${String(done)} of ${count}`);
      return `${count} children`;
    };
    const deerflowBatch = async (batchIdPrefix: string, items: number) => {
      const started = await client.startBatch({
        batchId: `${batchIdPrefix}${randomUUID()}`,
        title: 'bench',
        subagentType: 'general-purpose',
        items: Array.from({ length: items }, (_, i) => ({ prompt: `Item ${i}` })),
        maxLiveItems: options.live,
        maxRunningItems: options.running,
      });
      const final = await started.handle.result();
      if (final.counts.completed !== items) throw new Error(`batch completed ${final.counts.completed} of ${items}: ${JSON.stringify(final.counts)}`);
      return `${final.continuedRuns} continue-as-new`;
    };
    const batch = (key: VariantKey, purpose: BatchPurpose, items: number): Promise<string> => {
      const prefix = ID_PREFIXES[key][purpose];
      if (key === 'raw') return rawBatch('noop', prefix, items);
      if (key === 'rawAgent') return rawBatch('agentTask', prefix, items);
      return deerflowBatch(prefix, items);
    };
    const historyReport = async (key: VariantKey): Promise<string | null> => {
      const prefix = ID_PREFIXES[key].measured;
      if (key === 'raw') {
        const ids = `WorkflowId STARTS_WITH '${prefix}'`;
        return batchHistoryReport(temporal, { label: 'raw', itemType: 'baselineItemWorkflow', parentType: 'baselineWindowedBatchWorkflow', itemFilter: ids, parentFilter: ids });
      }
      if (key === 'rawAgent') return null;
      return batchHistoryReport(temporal, {
        label: 'deerflow',
        itemType: 'batchItemWorkflow',
        parentType: 'batchWorkflow',
        itemFilter: `${SA_BATCH_ID.name} STARTS_WITH '${prefix}'`,
        parentFilter: `WorkflowId STARTS_WITH '${batchWorkflowId(prefix)}'`,
      });
    };
    return { readers: { cpu: processCpuReader(server.pid), metricsUrl: server.metricsUrl }, batch, historyReport, close };
  } catch (error) {
    await close();
    throw error;
  }
}

async function withBenchServer<T>(options: Options, dir: string, use: (server: BenchServer) => Promise<T>): Promise<T> {
  const server = await openBenchServer(options, dir);
  try {
    return await use(server);
  } finally {
    await server.close();
  }
}

/** Measures one batch of the variant on `server` (its warm-up, when there is one, is the caller's). */
async function measureBatch(server: BenchServer, options: Options, round: number, variant: BatchVariant): Promise<Sample> {
  const { result, requests } = await serverRequestsDuring(server.readers.metricsUrl, options.items, () =>
    timedRun(() => server.batch(variant.key, 'measured', options.items), server.readers.cpu),
  );
  return { round, label: variant.label, note: result.result, ...result.sample, serverRequests: requests };
}

function printResults(options: Options, rounds: readonly Round[], samples: readonly Sample[]): void {
  const several = options.rounds > 1;
  console.log(
    table(
      [...(several ? ['round'] : []), 'variant', 'wall s', 'items/s', 'CPU ms/item (this process)', 'dev server CPU ms/item', 'total CPU ms/item', 'note'],
      samples.map((s) => [
        ...(several ? [String(s.round)] : []),
        s.label,
        fixed(s.wallMs / 1000, 1),
        fixed((options.items / s.wallMs) * 1000, 1),
        fixed(s.cpuMs / options.items, 2),
        fixed(s.serverCpuMs / options.items, 2),
        fixed((s.cpuMs + s.serverCpuMs) / options.items, 2),
        s.note,
      ]),
    ),
  );
  console.log(`deerflow / raw throughput: ${perRound(rounds, (r) => r.raw.wallMs / r.deerflow.wallMs)} (items/s ratio; 1x = as fast as raw Temporal)`);
  console.log(
    `deerflow / (raw + in-process agent) throughput: ${perRound(rounds, (r) => r.rawAgent.wallMs / r.deerflow.wallMs)} ` +
      '(items/s ratio; 1x = as fast as a raw child whose activity runs the same agent task in-process, no store)',
  );
  // Both processes share the machine's cores: when they are saturated, items/s follows total CPU per item.
  const totalCpu = (s: Sample) => s.cpuMs + s.serverCpuMs;
  console.log(
    `raw / deerflow total CPU per item: ${perRound(rounds, (r) => totalCpu(r.raw) / totalCpu(r.deerflow))}, ` +
      `(raw + in-process agent) / deerflow: ${perRound(rounds, (r) => totalCpu(r.rawAgent) / totalCpu(r.deerflow))} ` +
      `(this process + dev server on ${cpus().length} cores; the throughput ratio a saturated machine allows)`,
  );
  console.log(
    `\nWhat the dev server did per item (its Prometheus counters over each variant's span${several ? ', median of the rounds' : ''}` +
      (options.sharedServer ? '; a variant also pays for timers and tasks the one before it left behind):' : '):'),
  );
  console.log(serverRequestsTable('item', VARIANTS.map((v) => ({ label: v.label, samples: rounds.map((r) => r[v.key].serverRequests) }))));
}

/** The profiled raw and deerflow batches, each checked against the measured CPU per item of its variant. */
async function printProfiles(server: BenchServer, options: Options, rounds: readonly Round[], items: number): Promise<void> {
  for (const key of ['raw', 'deerflow'] as const) {
    if (!options.sharedServer && options.warmupItems > 0) await server.batch(key, 'warmup', options.warmupItems);
    const measuredCpu = median(rounds.map((r) => r[key].cpuMs)) / options.items;
    const breakdown = await profileRepetition(() => server.batch(key, 'profiled', items));
    const name = key === 'raw' ? 'raw batch' : 'deerflow batch';
    console.log(`\n${breakdownText(`${name} of ${items} items`, breakdown, items, measuredCpu, { unit: 'item' })}`);
  }
}

function printReports(reports: readonly string[]): void {
  if (reports.length === 0) return;
  console.log('\nWhere the time goes (histories; queue = scheduled->started, exec = started->closed; medians / max):');
  for (const report of reports) console.log(report);
}

/** Gives `use` the server a variant's measured batch of `round` runs on, and returns its sample. */
type OnServer = (key: VariantKey, round: number, use: (server: BenchServer) => Promise<Sample>) => Promise<Sample>;

/** The rounds, each variant measured once per round in a rotated order; and every sample in the order they ran, for the table. */
async function measureRounds(options: Options, onServer: OnServer): Promise<{ readonly rounds: Round[]; readonly samples: Sample[] }> {
  const rounds: Round[] = [];
  const samples: Sample[] = [];
  for (let round = 1; round <= options.rounds; round++) {
    const measured: Partial<Record<VariantKey, Sample>> = {};
    for (const v of rotated(VARIANTS, round - 1)) {
      const sample = await onServer(v.key, round, (server) => measureBatch(server, options, round, v));
      measured[v.key] = sample;
      samples.push(sample);
    }
    rounds.push({ raw: measured.raw!, rawAgent: measured.rawAgent!, deerflow: measured.deerflow! });
  }
  return { rounds, samples };
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv);
  installBenchRuntime();
  const dir = mkdtempSync(join(tmpdir(), 'deerflow-bench-batch-'));
  try {
    console.log(`deerflow batch benchmark: ${cpus().length} CPU(s) (${cpus()[0]?.model.trim() ?? 'unknown'}), Node ${process.version}`);
    console.log(
      `${options.items} items, window ${options.live} live, ${options.running} running; scripted model answering at once; ` +
        `worker.workflow_stack_trace_limit=${options.workflowStackTraceLimit ?? 'null'}; ` +
        (options.sharedServer ? 'one dev server for all batches, each variant warmed up once' : 'each measured batch on a fresh dev server, warmed up there') +
        (options.warmupItems > 0 ? ` (unmeasured batches of ${options.warmupItems} items)` : ' (no warm-up)') +
        (options.rounds > 1 ? `; ${options.rounds} rounds of the three variants, one after the other, each round in a rotated order` : ''),
    );
    const reports: string[] = [];
    const addReport = (report: string | null) => {
      if (report !== null) reports.push(report);
    };
    if (options.sharedServer) {
      await withBenchServer(options, join(dir, 'shared'), async (server) => {
        // A worker in service runs compiled code; without this the first round's variants would also pay
        // for compiling theirs (deerflow's the most).
        if (options.warmupItems > 0) for (const v of VARIANTS) await server.batch(v.key, 'warmup', options.warmupItems);
        const { rounds, samples } = await measureRounds(options, (_key, _round, use) => use(server));
        printResults(options, rounds, samples);
        if (options.history) for (const v of VARIANTS) addReport(await server.historyReport(v.key));
        printReports(reports);
        if (options.profile !== undefined) await printProfiles(server, options, rounds, options.profile);
      });
      return;
    }
    let servers = 0;
    const { rounds, samples } = await measureRounds(options, (key, round, use) =>
      withBenchServer(options, join(dir, `server-${++servers}`), async (server) => {
        // New workers compile deerflow's workflow code anew in their threads: warm them up on this server.
        if (options.warmupItems > 0) await server.batch(key, 'warmup', options.warmupItems);
        const sample = await use(server);
        if (options.history && round === 1) addReport(await server.historyReport(key));
        return sample;
      }),
    );
    printResults(options, rounds, samples);
    printReports(reports);
    const items = options.profile;
    if (items !== undefined) await withBenchServer(options, join(dir, 'profile'), (server) => printProfiles(server, options, rounds, items));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exitCode = 1;
});
