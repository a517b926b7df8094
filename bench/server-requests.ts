import { rotated, type Variant } from './measure';
import { fixed, median, table } from './stats';

/**
 * The dev server's request counters, summed by family and operation (`persistence CreateWorkflowExecution`,
 * `service RespondWorkflowTaskCompleted`, `task VisibilityTaskUpsertExecution`), as its Prometheus
 * endpoint reports them.
 */
export type ServerRequests = ReadonlyMap<string, number>;

/**
 * Counters of requests the server served (frontend, history, matching) and made to its database,
 * of the tasks its history queues (transfer, timer, visibility) ran, and of the task attempts it
 * put back because a workflow's lock or a namespace's budget was busy, by the family they count in.
 */
const FAMILIES: Readonly<Record<string, string>> = {
  persistence_requests: 'persistence',
  service_requests: 'service',
  task_requests: 'task',
  task_errors_throttled: 'throttled',
};
const COUNTER = new RegExp(`^(${Object.keys(FAMILIES).join('|')})\\{([^}]*)\\} (\\S+)$`);
const OPERATION = /(?:^|,)operation="([^"]*)"/;

/** Reads the counters now. */
async function readServerRequests(metricsUrl: string): Promise<ServerRequests> {
  const response = await fetch(metricsUrl);
  if (!response.ok) throw new Error(`${metricsUrl} answered ${response.status}`);
  const counts = new Map<string, number>();
  for (const line of (await response.text()).split('\n')) {
    const match = COUNTER.exec(line);
    const operation = match === null ? undefined : OPERATION.exec(match[2]!)?.[1];
    if (match === null || operation === undefined) continue;
    const key = `${FAMILIES[match[1]!]!} ${operation}`;
    counts.set(key, (counts.get(key) ?? 0) + Number(match[3]));
  }
  return counts;
}

/** Counters that stop moving once the work of a variant is done (timers left behind move others). */
const SETTLING = ['persistence CreateWorkflowExecution', 'service RespondWorkflowTaskCompleted', 'service RespondActivityTaskCompleted'];
/**
 * Longer than the interval in which the server reports its counters (about a second: a request
 * shows 0.3-0.9 s after it was served), so two equal readings this far apart have a report between them.
 */
const SETTLE_POLL_MS = 1_200;
const SETTLE_MAX_MS = 12_000;

/**
 * Reads the counters once the work just done shows in them: the server reports its counters in
 * intervals, so a reading right after a batch ends misses some of its last requests.
 */
async function readSettledServerRequests(metricsUrl: string): Promise<ServerRequests> {
  let last = await readServerRequests(metricsUrl);
  for (let waited = 0; waited < SETTLE_MAX_MS; waited += SETTLE_POLL_MS) {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
    const next = await readServerRequests(metricsUrl);
    if (SETTLING.every((key) => next.get(key) === last.get(key))) return next;
    last = next;
  }
  return last;
}

/**
 * Runs `work` between two settled readings: what the server did meanwhile, per unit of work (a
 * batch item, a task), beside what `work` returned.
 */
export async function serverRequestsDuring<T>(metricsUrl: string, units: number, work: () => Promise<T>): Promise<{ readonly result: T; readonly requests: ServerRequests }> {
  const before = await readSettledServerRequests(metricsUrl);
  const result = await work();
  const after = await readSettledServerRequests(metricsUrl);
  return { result, requests: new Map([...after].map(([key, count]) => [key, (count - (before.get(key) ?? 0)) / units])) };
}

/**
 * One column per variant (the median over its samples), one row per operation any variant asked
 * for at least once per 20 units (`unit`: what the samples were divided by), and each family's total.
 */
export function serverRequestsTable(unit: string, variants: readonly { readonly label: string; readonly samples: readonly ServerRequests[] }[]): string {
  const value = (samples: readonly ServerRequests[], key: string) => median(samples.map((s) => s.get(key) ?? 0));
  const keys = [...new Set(variants.flatMap((v) => v.samples.flatMap((s) => [...s.keys()])))].sort();
  const shown = keys.filter((key) => variants.some((v) => value(v.samples, key) >= 0.05));
  const total = (family: string) => (samples: readonly ServerRequests[]) =>
    median(samples.map((s) => [...s].filter(([key]) => key.startsWith(`${family} `)).reduce((sum, [, n]) => sum + n, 0)));
  const rows = [
    ...shown.map((key) => [key, ...variants.map((v) => fixed(value(v.samples, key), 2))]),
    ...Object.values(FAMILIES).map((family) => [`${family}, all operations`, ...variants.map((v) => fixed(total(family)(v.samples), 2))]),
  ];
  return table([`per ${unit} (family, operation)`, ...variants.map((v) => v.label)], rows);
}

/**
 * `rounds` rounds of one repetition of each variant (in a rotated order), each counted on its own
 * between settled readings: per variant, one sample of the server's requests per unit a round.
 */
export async function countServerRequests(metricsUrl: string, variants: readonly Variant[], units: number, rounds: number): Promise<Map<Variant, ServerRequests[]>> {
  const samples = new Map(variants.map((v) => [v, [] as ServerRequests[]]));
  for (let round = 0; round < rounds; round++) {
    for (const v of rotated(variants, round)) {
      await v.prepare?.();
      samples.get(v)!.push((await serverRequestsDuring(metricsUrl, units, v.run)).requests);
    }
  }
  return samples;
}
