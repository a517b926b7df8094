/**
 * Event-store benchmark: `putBatch` write throughput (events/s, batched, beside reference writers
 * timed in the same run: ./event-store/anchors.ts) and `listEvents` latency with 1,000,000 stored
 * `subagent` events, for SQLite and PostgreSQL. See bench/README.md.
 *
 *   npm run bench:events -- [--events 1000000] [--backends sqlite,postgres] [--batch 25,500] [--queries 200] [--no-anchors]
 */
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Command, InvalidArgumentError } from 'commander';
import type { RunEvent } from '../src/contracts';
import type { ListEventsQuery, NewRunEvent } from '../src/store';
import { openAnchors, RAW_FLOOR, ROW_AT_A_TIME, type AnchorWriter } from './event-store/anchors';
import { BACKENDS, openPostgresBackend, openSqliteBackend, resolvePostgres, type BackendName, type BenchBackend, type PostgresServer } from './event-store/backends';
import { ACTIVE_RUNS, EVENTS_PER_RUN, TASK_CHUNK, TASKS_PER_RUN, Workload, prng, type GeneratedEvent } from './event-store/workload';
import { fixed, max, median, table } from './stats';
import { intOption } from './int-option';

interface Options {
  readonly events: number;
  readonly backends: BackendName[];
  readonly batch: number[];
  readonly queries: number;
  readonly warmup: number;
  readonly anchors: boolean;
  readonly postgresUrl: string | undefined;
}

const PAGE = 500;
/** Rows generated and written per round (at most); each round uses one batch size, rounds rotate through them. */
const ROUND_EVENTS = 10_000;
const FILL_BUCKETS = 5;

/** Set on Ctrl-C; the write and query loops stop at their next turn. */
let stopRequested = false;

class Interrupted extends Error {}

/**
 * Lets the event loop run (better-sqlite3 calls are synchronous, so without this a SQLite phase never
 * yields and a Ctrl-C would wait for its end); throws once a stop was requested. Never timed.
 */
async function checkpoint(): Promise<void> {
  await new Promise<void>((resolveTurn) => setImmediate(resolveTurn));
  if (stopRequested) throw new Interrupted('interrupted');
}

function batchList(raw: string): number[] {
  const values = raw.split(',').map((part) => intOption('each batch size', 1, 10_000)(part.trim()));
  return [...new Set(values)];
}

function backendList(raw: string): BackendName[] {
  const names = [...new Set(raw.split(',').map((s) => s.trim()))];
  for (const name of names) if (!(BACKENDS as readonly string[]).includes(name)) throw new InvalidArgumentError(`unknown backend ${name} (use ${BACKENDS.join(',')})`);
  return names as BackendName[];
}

function parseOptions(argv: readonly string[]): Options {
  const program = new Command()
    .name('npm run bench:events --')
    .description('RunEventStore write throughput (putBatch) and listEvents latency on a large table, SQLite and PostgreSQL.')
    .option('--events <n>', 'events to store (also the table size the queries run on)', intOption('--events', 1_000, 100_000_000), 1_000_000)
    .option('--backends <list>', 'comma-separated: sqlite, postgres', backendList, [...BACKENDS])
    .option('--batch <list>', 'comma-separated putBatch sizes; the events are split evenly between them (25 = production flush size)', batchList, [25, 500])
    .option('--queries <n>', 'measured listEvents calls per query kind', intOption('--queries', 1, 100_000), 200)
    .option('--warmup <n>', 'unmeasured listEvents calls per query kind first', intOption('--warmup', 0, 10_000), 10)
    .option('--no-anchors', `skip the ${ROW_AT_A_TIME} and ${RAW_FLOOR} writers timed beside putBatch (each writes all the events again)`)
    .option('--postgres-url <url>', 'PostgreSQL server (a fresh schema is created and dropped); default DEERFLOW_TEST_POSTGRES_URL, else scripts/postgres-for-tests.sh')
    .showHelpAfterError();
  program.parse([...argv]);
  const o = program.opts<{ events: number; backends: BackendName[]; batch: number[]; queries: number; warmup: number; anchors: boolean; postgresUrl?: string }>();
  return {
    events: o.events,
    backends: o.backends,
    batch: o.batch,
    queries: o.queries,
    warmup: o.warmup,
    anchors: o.anchors,
    postgresUrl: o.postgresUrl ?? process.env.DEERFLOW_TEST_POSTGRES_URL,
  };
}

/** Nearest-rank percentile. */
function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}

function thousands(n: number): string {
  return Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '-';
}

/** Events per round: ROUND_EVENTS, smaller for small runs so that every batch size gets >= 10 rounds, never below the largest batch. */
function roundEvents(options: Options): number {
  return Math.max(...options.batch, Math.min(ROUND_EVENTS, Math.floor(options.events / (10 * options.batch.length))));
}

// ---------------------------------------------------------------------------------------------
// Fill: write the workload through putBatch and remember what the queries need.

interface WriteStats {
  readonly batch: number;
  events: number;
  ms: number;
  /** This process's CPU during the timed calls. */
  cpuMs: number;
  readonly batchMs: number[];
  /** [events, ms] per fill-level bucket (0-20 %, ... of the table). */
  readonly buckets: Array<{ events: number; ms: number }>;
}

/** What was written, per run and task, so that every query has a known answer. */
class Written {
  readonly runRows: Int32Array;
  readonly runLastSeq: Float64Array;
  readonly runMarks: Int32Array;
  readonly taskMidSeq: Float64Array;
  readonly taskAfterMid: Int32Array;

  constructor(readonly workload: Workload) {
    const runs = workload.runCount;
    this.runRows = new Int32Array(runs);
    this.runLastSeq = new Float64Array(runs);
    this.runMarks = new Int32Array(runs);
    this.taskMidSeq = new Float64Array(runs * TASKS_PER_RUN).fill(-1);
    this.taskAfterMid = new Int32Array(runs * TASKS_PER_RUN);
  }

  record(g: GeneratedEvent, seq: number): void {
    this.runRows[g.run]! += 1;
    this.runLastSeq[g.run] = seq;
    if (g.row.event !== 'subagent.step') this.runMarks[g.run]! += 1;
    const t = g.run * TASKS_PER_RUN + g.task;
    if (this.taskMidSeq[t]! >= 0) this.taskAfterMid[t]! += 1;
    if (g.mid) this.taskMidSeq[t] = seq;
  }
}

/** The store's putBatch or an anchor, each writing every round's rows into a table of its own. */
interface Writer {
  readonly label: string;
  /** One entry per batch size, in the order of `--batch`. */
  readonly writes: WriteStats[];
  /** Writes one batch; resolves to the number of rows written. */
  write(rows: readonly NewRunEvent[]): Promise<number>;
}

interface FillResult {
  /** The store's putBatch. */
  readonly writes: WriteStats[];
  readonly anchors: ReadonlyArray<{ readonly label: string; readonly writes: WriteStats[] }>;
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly payloadBytes: number;
  readonly written: Written;
}

function emptyStats(options: Options): WriteStats[] {
  return options.batch.map((batch) => ({
    batch,
    events: 0,
    ms: 0,
    cpuMs: 0,
    batchMs: [],
    buckets: Array.from({ length: FILL_BUCKETS }, () => ({ events: 0, ms: 0 })),
  }));
}

/** Writes `events` in batches of `stats.batch` through `writer`, timing only its calls. */
async function writeRound(writer: Writer, stats: WriteStats, bucket: number, events: readonly GeneratedEvent[], onWritten: (slice: readonly GeneratedEvent[]) => void): Promise<void> {
  for (let i = 0; i < events.length; i += stats.batch) {
    const slice = events.slice(i, i + stats.batch);
    const rows = slice.map((e) => e.row);
    const cpu = process.cpuUsage();
    const start = performance.now();
    const count = await writer.write(rows);
    const ms = performance.now() - start;
    const used = process.cpuUsage(cpu);
    if (count !== rows.length) throw new Error(`${writer.label}: wrote ${count} of ${rows.length} rows (dedupe keys must be unique)`);
    onWritten(slice);
    stats.batchMs.push(ms);
    stats.ms += ms;
    stats.cpuMs += (used.user + used.system) / 1000;
    stats.events += rows.length;
    stats.buckets[bucket]!.ms += ms;
    stats.buckets[bucket]!.events += rows.length;
  }
}

async function fill(backend: BenchBackend, anchors: readonly AnchorWriter[], options: Options, log: (line: string) => void): Promise<FillResult> {
  const workload = new Workload(options.events);
  const written = new Written(workload);
  let stored: RunEvent[] = [];
  const store: Writer = {
    label: 'store putBatch',
    writes: emptyStats(options),
    write: async (rows) => {
      stored = await backend.stores.events.putBatch(rows);
      return stored.length;
    },
  };
  const recordStored = (slice: readonly GeneratedEvent[]) => slice.forEach((e, k) => written.record(e, stored[k]!.seq));
  const writers: Writer[] = [store, ...anchors.map((a) => ({ label: a.label, writes: emptyStats(options), write: (rows: readonly NewRunEvent[]) => a.write(rows) }))];
  const perRound = roundEvents(options);
  let total = 0;
  let payloadBytes = 0;
  let nextProgress = 0.1;
  const cpuBefore = process.cpuUsage();
  const t0 = performance.now();
  for (let round = 0; total < options.events; round++) {
    await checkpoint();
    const size = round % options.batch.length;
    // Generated before the clock starts: only the writes are timed.
    const events = workload.next(perRound);
    if (events.length === 0) break;
    for (const e of events) if (e.row.event === 'subagent.step') payloadBytes += JSON.stringify(e.row.payload).length;
    const bucket = Math.min(FILL_BUCKETS - 1, Math.floor((total / options.events) * FILL_BUCKETS));
    // Every writer gets the round's rows, so all tables grow alike; the one that goes first rotates
    // (per batch size), so none always runs right after the same other one.
    const turn = Math.floor(round / options.batch.length);
    for (let k = 0; k < writers.length; k++) {
      const writer = writers[(turn + k) % writers.length]!;
      await checkpoint();
      await writeRound(writer, writer.writes[size]!, bucket, events, writer === store ? recordStored : () => undefined);
    }
    total += events.length;
    if (total / options.events >= nextProgress) {
      const elapsed = (performance.now() - t0) / 1000;
      const storeMs = store.writes.reduce((a, w) => a + w.ms, 0);
      log(`  ${backend.name}: ${thousands(total)} events stored, ${fixed(elapsed, 0)} s, putBatch ${thousands((total / storeMs) * 1000)} events/s`);
      while (total / options.events >= nextProgress) nextProgress += 0.1;
    }
  }
  if (total !== options.events) throw new Error(`${backend.name}: the workload ended after ${total} of ${options.events} events`);
  const cpu = process.cpuUsage(cpuBefore);
  const steps = written.runRows.reduce((a, b) => a + b, 0) - written.runMarks.reduce((a, b) => a + b, 0);
  return {
    writes: store.writes,
    anchors: writers.slice(1).map((w) => ({ label: w.label, writes: w.writes })),
    wallMs: performance.now() - t0,
    cpuMs: (cpu.user + cpu.system) / 1000,
    payloadBytes: payloadBytes / Math.max(1, steps),
    written,
  };
}

// ---------------------------------------------------------------------------------------------
// Queries: listEvents latency on the full table.

interface QueryKind {
  readonly key: string;
  readonly label: string;
  /** A query on a random run and the number of rows it must return; null when this run has no candidate. */
  build(written: Written, random: () => number): { query: ListEventsQuery; expected: number } | null;
}

function randomRun(written: Written, random: () => number): number {
  for (let tries = 0; tries < 10_000; tries++) {
    const run = Math.floor(random() * written.workload.runCount);
    if (written.runRows[run]! > 0) return run;
  }
  throw new Error('no stored run found to query');
}

const QUERY_KINDS: readonly QueryKind[] = [
  {
    key: 'first',
    label: 'first page of a run (limit 500)',
    build: (w, random) => {
      const run = randomRun(w, random);
      return { query: { runId: w.workload.runIds[run]!, limit: PAGE }, expected: Math.min(PAGE, w.runRows[run]!) };
    },
  },
  {
    key: 'task',
    label: 'task page mid-run (taskId + afterSeq, limit 500)',
    build: (w, random) => {
      const run = randomRun(w, random);
      const task = Math.floor(random() * TASKS_PER_RUN);
      const t = run * TASKS_PER_RUN + task;
      const taskId = w.workload.taskIds[run]?.[task];
      if (taskId === undefined || w.taskMidSeq[t]! < 0) return null;
      return { query: { runId: w.workload.runIds[run]!, taskId, afterSeq: w.taskMidSeq[t]!, limit: PAGE }, expected: Math.min(PAGE, w.taskAfterMid[t]!) };
    },
  },
  {
    key: 'types',
    label: "eventTypes ['subagent.start','subagent.end']",
    build: (w, random) => {
      const run = randomRun(w, random);
      return { query: { runId: w.workload.runIds[run]!, eventTypes: ['subagent.start', 'subagent.end'], limit: PAGE }, expected: Math.min(PAGE, w.runMarks[run]!) };
    },
  },
  {
    key: 'tail',
    label: 'tail poll (afterSeq = last seq, 0 rows)',
    build: (w, random) => {
      const run = randomRun(w, random);
      return { query: { runId: w.workload.runIds[run]!, afterSeq: w.runLastSeq[run]! }, expected: 0 };
    },
  },
];

interface QueryStats {
  readonly kind: QueryKind;
  readonly ms: number[];
  readonly rows: number[];
  sample: ListEventsQuery | null;
}

async function measureQueries(backend: BenchBackend, written: Written, options: Options): Promise<QueryStats[]> {
  // Same seed for every backend: both answer the same queries in the same order.
  const random = prng(7);
  const stats = QUERY_KINDS.map((kind): QueryStats => ({ kind, ms: [], rows: [], sample: null }));
  for (let i = 0; i < options.warmup + options.queries; i++) {
    await checkpoint();
    for (const s of stats) {
      let built = s.kind.build(written, random);
      for (let tries = 0; built === null && tries < 1000; tries++) built = s.kind.build(written, random);
      if (built === null) throw new Error(`no run has a candidate for query "${s.kind.label}"`);
      const start = performance.now();
      const rows = await backend.stores.events.listEvents(built.query);
      const ms = performance.now() - start;
      if (rows.length !== built.expected) {
        throw new Error(`${backend.name}: "${s.kind.label}" returned ${rows.length} rows, expected ${built.expected} (${JSON.stringify(built.query)})`);
      }
      if (i < options.warmup) continue;
      s.ms.push(ms);
      s.rows.push(rows.length);
      s.sample ??= built.query;
    }
  }
  return stats;
}

// ---------------------------------------------------------------------------------------------
// Report.

interface BackendResult {
  readonly name: BackendName;
  readonly description: string;
  readonly fill: FillResult;
  readonly queryNote: string;
  readonly queries: QueryStats[];
  readonly plans: Array<{ label: string; lines: string[] }>;
  readonly storage: string;
}

function writeTable(results: readonly BackendResult[]): string {
  const rows: string[][] = [];
  for (const r of results) {
    for (const w of r.fill.writes) {
      rows.push([
        r.name,
        String(w.batch),
        thousands(w.events),
        thousands((w.events / w.ms) * 1000),
        fixed(median(w.batchMs), 2),
        fixed(percentile(w.batchMs, 95), 2),
        fixed(max(w.batchMs), 1),
      ]);
    }
    const all = r.fill.writes.reduce((acc, w) => ({ events: acc.events + w.events, ms: acc.ms + w.ms }), { events: 0, ms: 0 });
    rows.push([r.name, 'all', thousands(all.events), thousands((all.events / all.ms) * 1000), '', '', '']);
  }
  return table(['backend', 'batch', 'events', 'events/s', 'ms/batch p50', 'p95', 'max'], rows);
}

/** putBatch beside each anchor per batch size; the last column is putBatch events/s over the writer's. */
function anchorTable(results: readonly BackendResult[]): string {
  const rows: string[][] = [];
  for (const r of results) {
    r.fill.writes.forEach((store, size) => {
      const rate = (w: WriteStats) => (w.events / w.ms) * 1000;
      const row = (label: string, w: WriteStats, ratio: string) => [
        r.name,
        String(w.batch),
        label,
        thousands(rate(w)),
        fixed(median(w.batchMs), 2),
        fixed(percentile(w.batchMs, 95), 2),
        fixed((w.cpuMs * 1000) / w.events, 1),
        ratio,
      ];
      rows.push(row('putBatch', store, ''));
      for (const a of r.fill.anchors) {
        const w = a.writes[size]!;
        rows.push(row(a.label, w, `${fixed(rate(store) / rate(w), 2)}x`));
      }
    });
  }
  return table(['backend', 'batch', 'writer', 'events/s', 'ms/batch p50', 'p95', 'CPU us/event', 'putBatch / writer'], rows);
}

function fillLevelTable(results: readonly BackendResult[]): string {
  const header = ['backend', 'batch', ...Array.from({ length: FILL_BUCKETS }, (_, i) => `${(100 / FILL_BUCKETS) * i}-${(100 / FILL_BUCKETS) * (i + 1)}%`)];
  const rows = results.flatMap((r) =>
    r.fill.writes.map((w) => [r.name, String(w.batch), ...w.buckets.map((b) => (b.events === 0 ? '-' : thousands((b.events / b.ms) * 1000)))]),
  );
  return table(header, rows);
}

function queryTable(r: BackendResult): string {
  return table(
    ['query', 'rows', 'p50 ms', 'p95 ms', 'max ms'],
    r.queries.map((q) => [q.kind.label, fixed(median(q.rows), 0), fixed(median(q.ms), 2), fixed(percentile(q.ms, 95), 2), fixed(max(q.ms), 2)]),
  );
}

function ratioTables(sqlite: BackendResult, postgres: BackendResult): string {
  const x = (v: number) => `${fixed(v, 2)}x`;
  const writeRows = sqlite.fill.writes.map((s) => {
    const p = postgres.fill.writes.find((w) => w.batch === s.batch)!;
    return [String(s.batch), x(p.events / p.ms / (s.events / s.ms)), x(median(p.batchMs) / median(s.batchMs))];
  });
  const queryRows = sqlite.queries.map((s) => {
    const p = postgres.queries.find((q) => q.kind.key === s.kind.key)!;
    return [s.kind.label, x(median(p.ms) / median(s.ms)), x(percentile(p.ms, 95) / percentile(s.ms, 95)), x(max(p.ms) / max(s.ms))];
  });
  return [
    'PostgreSQL / SQLite, writes (events/s below 1x: PostgreSQL writes slower; ms/batch above 1x: each call takes longer):',
    table(['batch', 'events/s pg/sqlite', 'ms/batch p50 pg/sqlite'], writeRows),
    '',
    'PostgreSQL / SQLite, listEvents latency (above 1x: PostgreSQL slower):',
    table(['query', 'p50', 'p95', 'max'], queryRows),
  ].join('\n');
}

function writeMs(writes: readonly WriteStats[]): number {
  return writes.reduce((a, w) => a + w.ms, 0);
}

function anchorTimes(f: FillResult): string {
  return f.anchors.map((a) => `, ${a.label} ${fixed(writeMs(a.writes) / 1000, 1)} s`).join('');
}

function backendSection(r: BackendResult, options: Options): string {
  const lines = [
    `${r.name}: ${r.description}`,
    `  fill: ${thousands(options.events)} events in ${fixed(r.fill.wallMs / 1000, 1)} s wall (putBatch time ${fixed(writeMs(r.fill.writes) / 1000, 1)} s${anchorTimes(r.fill)}, this process's CPU ${fixed(r.fill.cpuMs / 1000, 1)} s); storage: ${r.storage}`,
    `  listEvents at ${thousands(options.events)} events, ${options.queries} queries per kind after ${options.warmup} warm-up, random runs; ${r.queryNote}:`,
    indent(queryTable(r), '  '),
  ];
  return lines.join('\n');
}

function plansSection(r: BackendResult): string {
  const parts = [`${r.name} query plans (one sample query each):`];
  for (const p of r.plans) parts.push(`  ${p.label}:`, ...p.lines.map((l) => `    ${l}`));
  return parts.join('\n');
}

function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line) => prefix + line)
    .join('\n');
}

// ---------------------------------------------------------------------------------------------

async function runBackend(name: BackendName, options: Options, pg: () => Promise<PostgresServer>, cleanups: Cleanups, log: (line: string) => void): Promise<BackendResult> {
  const backend = name === 'sqlite' ? await openSqliteBackend() : await openPostgresBackend((await pg()).url);
  const removeCleanup = cleanups.push(`${name} data`, () => backend.close());
  try {
    const anchors = options.anchors ? await openAnchors(name, async () => (await pg()).url) : [];
    const removeAnchors = cleanups.push(`${name} anchor data`, async () => {
      for (const a of anchors) await a.close();
    });
    const writers = ['putBatch', ...anchors.map((a) => a.label)].join(', ');
    log(`${name}: writing ${thousands(options.events)} events with ${writers} (batch sizes ${options.batch.join('/')}, rotating every ${thousands(roundEvents(options))} events) ...`);
    let filled: FillResult;
    try {
      filled = await fill(backend, anchors, options, log);
    } finally {
      for (const a of anchors) await a.close();
      removeAnchors();
    }
    const queryNote = await backend.prepareForQueries();
    log(`${name}: ${QUERY_KINDS.length} x ${options.warmup + options.queries} listEvents calls ...`);
    const queries = await measureQueries(backend, filled.written, options);
    const plans: Array<{ label: string; lines: string[] }> = [];
    for (const q of queries) if (q.sample) plans.push({ label: q.kind.label, lines: await backend.explain(q.sample) });
    const storage = await backend.storage();
    const result: BackendResult = { name, description: backend.description, fill: filled, queryNote, queries, plans, storage };
    console.log(backendSection(result, options));
    console.log('');
    return result;
  } finally {
    await backend.close();
    removeCleanup();
  }
}

interface Cleanups {
  push(name: string, fn: () => Promise<void>): () => void;
  run(): Promise<void>;
}

/** Cleanups to run at the end or on Ctrl-C, last registered first; each one runs once. */
function cleanupList(): Cleanups {
  const steps = new Map<number, { name: string; fn: () => Promise<void> }>();
  let next = 0;
  return {
    push(name, fn) {
      const id = next++;
      steps.set(id, { name, fn });
      return () => steps.delete(id);
    },
    async run() {
      for (const id of [...steps.keys()].reverse()) {
        const step = steps.get(id);
        steps.delete(id);
        if (step) await step.fn().catch((err: unknown) => console.error(`cleanup (${step.name}) failed: ${String(err)}`));
      }
    },
  };
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv);
  const log = (line: string) => console.error(line);
  const cleanups = cleanupList();
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) process.exit(130);
    interrupted = true;
    stopRequested = true;
    console.error(`\n${signal}: removing the benchmark data ...`);
    void cleanups.run().finally(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  let server: Promise<PostgresServer> | null = null;
  const pg = () =>
    (server ??= resolvePostgres(options.postgresUrl, log).then((s) => {
      if (s.stop) cleanups.push('PostgreSQL test cluster', s.stop);
      return s;
    }));

  try {
    const startedAt = performance.now();
    const machine = `${cpus().length} CPU(s) (${cpus()[0]?.model.trim() ?? 'unknown'}), Node ${process.version}`;
    const runs = Math.ceil(options.events / EVENTS_PER_RUN);
    console.log(`deerflow event-store benchmark: ${machine}`);
    console.log(
      `workload: ${thousands(options.events)} events, category subagent, ${thousands(runs)} runs x ${TASKS_PER_RUN} tasks ` +
        `(subagent.start + steps + subagent.end, ${EVENTS_PER_RUN} events per run), ${ACTIVE_RUNS} runs in flight at a time, ` +
        `each task's rows in chunks of ${TASK_CHUNK}; unique dedupe keys; one writer, putBatch batch sizes ${options.batch.join(', ')} ` +
        `taking turns every ${thousands(roundEvents(options))} events`,
    );
    if (options.backends.includes('postgres')) {
      const s = await pg();
      console.log(`postgres server: ${s.source}`);
    }
    console.log('');

    const results: BackendResult[] = [];
    for (const name of options.backends) results.push(await runBackend(name, options, pg, cleanups, log));

    const first = results[0];
    if (first) console.log(`step payload JSON: ${fixed(first.fill.payloadBytes, 0)} bytes on average`);
    console.log('');
    console.log('Write throughput (putBatch; each batch size wrote an equal share of the events, interleaved):');
    console.log(writeTable(results));
    console.log('');
    if (results.some((r) => r.fill.anchors.length > 0)) {
      console.log(
        `putBatch against anchors in the same run (the same rows, each writer on a table of its own with the store's schema, rounds interleaved; ` +
          `${ROW_AT_A_TIME}: the previous release's putBatch, one INSERT per row; ${RAW_FLOOR}: a bare prepared INSERT per row in one transaction):`,
      );
      console.log(anchorTable(results));
      console.log('');
    }
    console.log('events/s by table fill level (share of the final table size when the batches ran):');
    console.log(fillLevelTable(results));
    console.log('');
    const sqlite = results.find((r) => r.name === 'sqlite');
    const postgres = results.find((r) => r.name === 'postgres');
    if (sqlite && postgres) {
      console.log(ratioTables(sqlite, postgres));
      console.log('');
    }
    for (const r of results) {
      console.log(plansSection(r));
      console.log('');
    }
    console.log(`total ${fixed((performance.now() - startedAt) / 1000, 1)} s`);
  } finally {
    await cleanups.run();
  }
}

main().catch((err: unknown) => {
  if (err instanceof Interrupted) return;
  console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exitCode = 1;
});
