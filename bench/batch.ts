/**
 * Batch throughput benchmark: items/s of a deerflow batch (scripted model, zero latency) as a ratio
 * against raw Temporal child-workflow + activity throughput with the same window, and against the
 * same children whose activity runs the subagent task with an in-process agent, measured in the
 * same run on the same embedded dev server. See bench/README.md.
 *
 *   npm run bench:batch -- [--items 5000] [--live 100] [--running 8] [--rounds 1] [--warmup-items 200] [--no-history] [--profile <items>]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { Command } from 'commander';
import { stringify } from 'yaml';
import { batchWorkflowId, DeerFlowClient } from '../src/client';
import { SA_BATCH_ID } from '../src/contracts';
import { loadConfig } from '../src/config';
import { startDevServer } from '../src/devserver';
import { openConfiguredStores } from '../src/store';
import { createWorkers } from '../src/worker/create-workers';
import { BASELINE_WORKFLOW_TASK_QUEUE, baselineActivityTaskQueue, createBaselineWorkers } from './baseline';
import type { BaselineActivityName } from './baseline-activities';
import type { BaselineBatchInput } from './baseline-workflows';
import { batchHistoryReport, HISTORY_SAMPLE } from './batch-history';
import { breakdownText, profileRepetition } from './cpu-breakdown';
import { runInProcessAgents } from './in-process-agent';
import { intOption } from './int-option';
import { installBenchRuntime } from './logging';
import { rotated, timedRun } from './measure';
import { processCpuReader } from './process-cpu';
import { serverRequestsDuring, serverRequestsTable, type ServerRequests } from './server-requests';
import { fixed, median, table } from './stats';

/** Workflow ids of the raw variant's parent (its children's ids start with the parent's). */
const RAW_ID_PREFIX = 'bench-baseline-batch-';
/** Batch ids of the measured deerflow batches (their items carry it as `DeerflowBatchId`). */
const DEERFLOW_BATCH_ID_PREFIX = 'bench_batch_';

interface Options {
  readonly items: number;
  readonly live: number;
  readonly running: number;
  /** Times the three variants run, one after the other each time, in a rotated order (see `rotated`); ratios are taken per round. */
  readonly rounds: number;
  /** Items of one unmeasured batch of each variant before the rounds (0: none). */
  readonly warmupItems: number;
  readonly history: boolean;
  /** Items of one more raw and one more deerflow batch, each run under the CPU profiler (CPU per item by phase), if any. */
  readonly profile?: number;
}

function parseOptions(argv: readonly string[]): Options {
  const program = new Command()
    .name('npm run bench:batch --')
    .description('Batch items/s vs raw Temporal child workflows + activities with the same window (same run, same server).')
    .option('--items <n>', 'items in the batch (and children in the baseline)', intOption('--items', 1, 100_000), 5000)
    .option('--live <n>', 'max_live_items of the batch = children in flight in the baseline', intOption('--live', 1, 1000), 100)
    .option('--running <n>', 'max_running_items = subagent_runtime.max_running = baseline activity slots', intOption('--running', 1, 64), 8)
    .option('--rounds <n>', 'run the three variants this many times, each round in a rotated order (a multiple of 3 puts each in each place equally often), and report the median of the per-round ratios', intOption('--rounds', 1, 20), 1)
    .option('--warmup-items <n>', 'items of one unmeasured batch of each variant first, so that the first round runs compiled code too (0: none)', intOption('--warmup-items', 0, 100_000), 200)
    .option('--no-history', `skip the step times read from the histories (up to ${HISTORY_SAMPLE} items per variant)`)
    .option('--profile <items>', 'one more raw and one more deerflow batch of this many items, each under the CPU profiler: CPU per item by thread and phase', intOption('--profile', 1, 100_000))
    .showHelpAfterError();
  program.parse([...argv]);
  return program.opts<Options>();
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

async function timed(round: number, label: string, items: number, server: ServerReaders, work: () => Promise<string>): Promise<Sample> {
  const { result, requests } = await serverRequestsDuring(server.metricsUrl, items, () => timedRun(work, server.cpu));
  return { round, label, note: result.result, ...result.sample, serverRequests: requests };
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv);
  installBenchRuntime();
  const dir = mkdtempSync(join(tmpdir(), 'deerflow-bench-batch-'));
  const server = await startDevServer();
  const serverReaders: ServerReaders = { cpu: processCpuReader(server.pid), metricsUrl: server.metricsUrl };
  try {
    const connection = await NativeConnection.connect({ address: server.address });
    const temporal = new Client({ connection: await Connection.connect({ address: server.address }), namespace: server.namespace });
    writeFileSync(join(dir, 'scenario.yaml'), stringify({ subagents: [{ match: '*', turns: [{ content: 'done' }] }] }));
    writeFileSync(
      join(dir, 'config.yaml'),
      stringify({
        models: [{ name: 'bench', provider: 'scripted', script: './scenario.yaml' }],
        subagent_runtime: { max_running: options.running, max_queued: 10_000 },
        subagent_batches: { enabled: true, max_items_per_batch: 100_000, max_live_items_per_batch: 1000 },
      }),
    );
    const loaded = loadConfig({ path: join(dir, 'config.yaml'), env: {} });
    const stores = await openConfiguredStores(loaded.config.store);
    const workers = await createWorkers({ connection, namespace: server.namespace, loaded, stores });
    // The raw + agent anchor: each child's activity runs the subagent task as the tasks benchmark's in-process anchor does.
    const agentTask = async (index: number) => {
      await runInProcessAgents(loaded, 'bench', 1, 'plain');
      return index;
    };
    const baseline = await createBaselineWorkers(connection, server.namespace, [options.running], agentTask);
    const running = Promise.all([workers.run(), baseline.run()]);
    const client = new DeerFlowClient(temporal, loaded.config, { agents: stores.agents, events: stores.events, batches: stores.batches });

    console.log(`deerflow batch benchmark: ${cpus().length} CPU(s) (${cpus()[0]?.model.trim() ?? 'unknown'}), Node ${process.version}`);
    const several = options.rounds > 1;
    console.log(
      `${options.items} items, window ${options.live} live, ${options.running} running; scripted model answering at once` +
        (options.warmupItems > 0 ? `; one unmeasured batch of ${options.warmupItems} items per variant first` : '') +
        (several ? `; ${options.rounds} rounds of the three variants, one after the other, each round in a rotated order` : ''),
    );
    const rawBatch = (activity: BaselineActivityName, idPrefix: string) => async (count: number) => {
      const input: BaselineBatchInput = { count, window: options.live, activityTaskQueue: baselineActivityTaskQueue(options.running), activity };
      const done = await temporal.workflow.execute('baselineWindowedBatchWorkflow', {
        taskQueue: BASELINE_WORKFLOW_TASK_QUEUE,
        workflowId: `${idPrefix}${randomUUID()}`,
        args: [input],
      });
      if (done !== count) throw new Error(`baseline completed ${String(done)} of ${count}`);
      return `${count} children`;
    };
    const deerflowBatch = (batchIdPrefix: string) => async (items: number) => {
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
    // `warmup` runs a variant unmeasured, with ids of its own that the history report never samples.
    const variants: readonly { key: keyof Round; label: string; run: (items: number) => Promise<string>; warmup: (items: number) => Promise<string> }[] = [
      { key: 'raw', label: 'raw child workflow + activity', run: rawBatch('noop', RAW_ID_PREFIX), warmup: rawBatch('noop', 'bench-warmup-raw-batch-') },
      {
        key: 'rawAgent',
        label: 'raw + in-process agent',
        run: rawBatch('agentTask', 'bench-baseline-agent-batch-'),
        warmup: rawBatch('agentTask', 'bench-warmup-agent-batch-'),
      },
      { key: 'deerflow', label: 'deerflow batch', run: deerflowBatch(DEERFLOW_BATCH_ID_PREFIX), warmup: deerflowBatch('bench_warmup_batch_') },
    ];
    // A worker in service runs compiled code; without this the first round's variants would also pay
    // for compiling theirs (deerflow's the most).
    if (options.warmupItems > 0) for (const v of variants) await v.warmup(options.warmupItems);
    const rounds: Round[] = [];
    // In the order they ran, for the table.
    const samples: Sample[] = [];
    for (let round = 1; round <= options.rounds; round++) {
      const measured: Partial<Record<keyof Round, Sample>> = {};
      for (const v of rotated(variants, round - 1)) {
        const sample = await timed(round, v.label, options.items, serverReaders, () => v.run(options.items));
        measured[v.key] = sample;
        samples.push(sample);
      }
      rounds.push({ raw: measured.raw!, rawAgent: measured.rawAgent!, deerflow: measured.deerflow! });
    }
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
      `\nWhat the dev server did per item (its Prometheus counters over each variant's span${several ? ', median of the rounds' : ''}; ` +
        'a variant also pays for timers and tasks the one before it left behind):',
    );
    console.log(serverRequestsTable('item', variants.map((v) => ({ label: v.label, samples: rounds.map((r) => r[v.key].serverRequests) }))));
    if (options.history) {
      console.log('\nWhere the time goes (histories; queue = scheduled->started, exec = started->closed; medians / max):');
      const rawIds = `WorkflowId STARTS_WITH '${RAW_ID_PREFIX}'`;
      console.log(
        await batchHistoryReport(temporal, { label: 'raw', itemType: 'baselineItemWorkflow', parentType: 'baselineWindowedBatchWorkflow', itemFilter: rawIds, parentFilter: rawIds }),
      );
      console.log(
        await batchHistoryReport(temporal, {
          label: 'deerflow',
          itemType: 'batchItemWorkflow',
          parentType: 'batchWorkflow',
          itemFilter: `${SA_BATCH_ID.name} STARTS_WITH '${DEERFLOW_BATCH_ID_PREFIX}'`,
          parentFilter: `WorkflowId STARTS_WITH '${batchWorkflowId(DEERFLOW_BATCH_ID_PREFIX)}'`,
        }),
      );
    }
    // After the history report, which reads the measured batches' histories.
    if (options.profile !== undefined) {
      const items = options.profile;
      // The measured CPU per item each profiled batch is checked against.
      const measuredCpu = (sample: (r: Round) => Sample) => median(rounds.map((r) => sample(r).cpuMs)) / options.items;
      const rawBreakdown = await profileRepetition(() => rawBatch('noop', 'bench-profiled-raw-batch-')(items));
      console.log(`\n${breakdownText(`raw batch of ${items} items`, rawBreakdown, items, measuredCpu((r) => r.raw), { unit: 'item' })}`);
      const breakdown = await profileRepetition(() => deerflowBatch('bench_profiled_batch_')(items));
      console.log(`\n${breakdownText(`deerflow batch of ${items} items`, breakdown, items, measuredCpu((r) => r.deerflow), { unit: 'item' })}`);
    }
    workers.shutdown();
    baseline.shutdown();
    await running;
    await stores.close();
    await connection.close();
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exitCode = 1;
});
