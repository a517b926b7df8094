import type { Client, WorkflowHandle } from '@temporalio/client';
import { fixed, max, median, table } from './stats';

type History = Awaited<ReturnType<WorkflowHandle['fetchHistory']>>;
type HistoryEvent = NonNullable<History['events']>[number];
type LongLike = number | { toNumber(): number };

/** Queue wait (scheduled -> started) and execution (started -> closed) of one kind of task. */
export interface TaskTimings {
  count: number;
  queueMs: number[];
  execMs: number[];
}

/** What one or more workflow histories say about where the time went. */
export interface HistoryProfile {
  workflows: number;
  events: number;
  /** History events per event type (`ActivityTaskScheduled`, ...). */
  eventTypes: Map<string, number>;
  /** Per activity type. */
  activities: Map<string, TaskTimings>;
  workflowTasks: TaskTimings;
  /** Sum over workflows of first event -> last event. */
  spanMs: number;
  /** Per repetition profiled: its first event -> its last event, over all its workflows. */
  repetitionSpansMs: number[];
  /** Per activity type: wall time in which at least one activity of the type was scheduled or running (summed over workflows). */
  coveredMs: Map<string, number>;
}

function toNumber(value: LongLike | null | undefined): number {
  if (value === null || value === undefined) return 0;
  return typeof value === 'number' ? value : value.toNumber();
}

function eventMs(event: HistoryEvent): number {
  const ts = event.eventTime;
  return ts ? toNumber(ts.seconds as LongLike | null | undefined) * 1000 + (ts.nanos ?? 0) / 1e6 : 0;
}

/** `ActivityTaskScheduled` for an event carrying `activityTaskScheduledEventAttributes`, and so on. */
function eventTypeName(event: HistoryEvent): string {
  for (const [key, value] of Object.entries(event)) {
    if (key.endsWith('EventAttributes') && value !== null && value !== undefined) {
      const name = key.slice(0, -'EventAttributes'.length);
      return name.charAt(0).toUpperCase() + name.slice(1);
    }
  }
  return 'Unknown';
}

function emptyTimings(): TaskTimings {
  return { count: 0, queueMs: [], execMs: [] };
}

/** Length of the union of [start, end] intervals. */
function coveredLength(intervals: Array<[number, number]>): number {
  const sorted = [...intervals].sort((a, b) => a[0] - b[0]);
  let total = 0;
  let current: [number, number] | null = null;
  for (const [start, end] of sorted) {
    if (current === null || start > current[1]) {
      if (current) total += current[1] - current[0];
      current = [start, end];
    } else if (end > current[1]) current[1] = end;
  }
  if (current) total += current[1] - current[0];
  return total;
}

/** Adds one workflow's history to `profile`; returns its first and last event times, if any. */
function addHistory(profile: HistoryProfile, history: History): [number, number] | null {
  const events = history.events ?? [];
  profile.workflows += 1;
  profile.events += events.length;
  for (const event of events) {
    const type = eventTypeName(event);
    profile.eventTypes.set(type, (profile.eventTypes.get(type) ?? 0) + 1);
  }
  const first = events[0];
  const last = events[events.length - 1];
  if (first && last) profile.spanMs += eventMs(last) - eventMs(first);

  const byId = new Map<number, HistoryEvent>();
  for (const event of events) byId.set(toNumber(event.eventId as LongLike | null | undefined), event);
  const intervals = new Map<string, Array<[number, number]>>();

  for (const event of events) {
    const wftDone = event.workflowTaskCompletedEventAttributes;
    if (wftDone) {
      const scheduled = byId.get(toNumber(wftDone.scheduledEventId as LongLike | null | undefined));
      const started = byId.get(toNumber(wftDone.startedEventId as LongLike | null | undefined));
      profile.workflowTasks.count += 1;
      if (scheduled && started) {
        profile.workflowTasks.queueMs.push(eventMs(started) - eventMs(scheduled));
        profile.workflowTasks.execMs.push(eventMs(event) - eventMs(started));
      }
      continue;
    }
    const closed =
      event.activityTaskCompletedEventAttributes ??
      event.activityTaskFailedEventAttributes ??
      event.activityTaskTimedOutEventAttributes ??
      event.activityTaskCanceledEventAttributes;
    if (!closed) continue;
    const scheduled = byId.get(toNumber(closed.scheduledEventId as LongLike | null | undefined));
    const started = byId.get(toNumber(closed.startedEventId as LongLike | null | undefined));
    const type = scheduled?.activityTaskScheduledEventAttributes?.activityType?.name ?? '(unknown)';
    const timings = profile.activities.get(type) ?? emptyTimings();
    profile.activities.set(type, timings);
    timings.count += 1;
    if (scheduled && started) {
      timings.queueMs.push(eventMs(started) - eventMs(scheduled));
      timings.execMs.push(eventMs(event) - eventMs(started));
    }
    if (scheduled) {
      const list = intervals.get(type) ?? [];
      intervals.set(type, list);
      list.push([eventMs(scheduled), eventMs(event)]);
    }
  }
  for (const [type, list] of intervals) profile.coveredMs.set(type, (profile.coveredMs.get(type) ?? 0) + coveredLength(list));
  return first && last ? [eventMs(first), eventMs(last)] : null;
}

/** Fetches the histories of `workflowIds` and profiles them together. */
export function profileWorkflows(client: Client, workflowIds: readonly string[]): Promise<HistoryProfile> {
  return profileRepetitions(client, [workflowIds]);
}

/**
 * Fetches the histories of the workflows of every repetition and profiles them together; each
 * repetition's span (its first event to its last, over its workflows) is kept apart: timed by the
 * server, it leaves out the client's start and result calls and moves less than their wall time.
 */
export async function profileRepetitions(client: Client, repetitions: ReadonlyArray<readonly string[]>): Promise<HistoryProfile> {
  const profile: HistoryProfile = {
    workflows: 0,
    events: 0,
    eventTypes: new Map(),
    activities: new Map(),
    workflowTasks: emptyTimings(),
    spanMs: 0,
    repetitionSpansMs: [],
    coveredMs: new Map(),
  };
  for (const workflowIds of repetitions) {
    let from = Infinity;
    let to = -Infinity;
    for (const id of workflowIds) {
      const span = addHistory(profile, await client.workflow.getHandle(id).fetchHistory());
      if (span) [from, to] = [Math.min(from, span[0]), Math.max(to, span[1])];
    }
    if (to >= from) profile.repetitionSpansMs.push(to - from);
  }
  return profile;
}

function timingsRow(label: string, timings: TaskTimings, covered: number | undefined, spanMs: number, units: number): string[] {
  return [
    label,
    fixed(timings.count / units, 2),
    `${fixed(median(timings.queueMs), 1)} / ${fixed(max(timings.queueMs), 1)}`,
    `${fixed(median(timings.execMs), 1)} / ${fixed(max(timings.execMs), 1)}`,
    covered === undefined ? '-' : `${fixed(covered, 0)} (${fixed((100 * covered) / spanMs, 0)}%)`,
  ];
}

function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line) => prefix + line)
    .join('\n');
}

/** The breakdown of one profile as text, counts divided by `units` (tasks, calls) named `unit`. */
export function profileText(label: string, profile: HistoryProfile, units: number, unit = 'task'): string {
  const rows: string[][] = [timingsRow('workflow task', profile.workflowTasks, undefined, profile.spanMs, units)];
  const activityTypes = [...profile.activities.keys()].sort();
  for (const type of activityTypes) {
    const timings = profile.activities.get(type);
    if (timings) rows.push(timingsRow(type, timings, profile.coveredMs.get(type), profile.spanMs, units));
  }
  const activities = [...profile.activities.values()].reduce((sum, t) => sum + t.count, 0);
  const spans = profile.repetitionSpansMs;
  const span = spans.length > 1 ? `span ${fixed(median(spans), 1)} ms (median of ${spans.length} repetitions, min ${fixed(Math.min(...spans), 1)})` : `span ${fixed(profile.spanMs, 0)} ms`;
  return [
    `  ${label}: ${profile.workflows} workflow(s), ${span}, ` +
      `${fixed(profile.events / units, 2)} history events/${unit}, ${fixed(activities / units, 2)} activities/${unit}`,
    `    events/${unit} by type: ${[...profile.eventTypes.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([type, count]) => `${type} ${fixed(count / units, 2)}`)
      .join(', ')}`,
    indent(table(['kind', `per ${unit}`, 'queue ms med/max', 'exec ms med/max', 'busy ms (of span)'], rows), '    '),
  ].join('\n');
}
