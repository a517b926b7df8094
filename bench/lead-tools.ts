/**
 * The lead working directly: one lead run that makes `calls` calls of its own tool `read_file`
 * (each one `runLeadTool` activity on the `deerflow` queue) and then answers, in two shapes, as
 * ms per call against raw Temporal activities of the same shape measured in the same run on the
 * same dev server. See bench/README.md.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@temporalio/client';
import type { LeadRunState } from '../src/contracts';
import { ThreadWorkspace } from '../src/tools/thread-workspace';
import { runBaseline, runBaselineSequence } from './baseline';
import type { DeerflowBench, ScriptedModel } from './deerflow';
import { profileText, profileWorkflows } from './history';
import { measureInterleaved, perUnit, variant, type Variant } from './measure';
import { fixed, median, medMin, ratio, table } from './stats';

/** `parallel`: every call in one lead response. `sequential`: one call per response, one response after another. */
export const LEAD_TOOL_SHAPES = ['parallel', 'sequential'] as const;
export type LeadToolShape = (typeof LEAD_TOOL_SHAPES)[number];

export const DEFAULT_LEAD_TOOL_CALLS = 20;
/** The sequential shape needs calls + 1 lead turns, within the default lead's `max_turns` (50). */
export const MAX_LEAD_TOOL_CALLS = 49;

const TOOL = 'read_file';
/** Each call reads a file of its own: the lead's loop guard stops a run repeating one identical call. */
function fileName(index: number): string {
  return `notes-${index}.txt`;
}
const FILE_TEXT = 'Notes of the lead-tool benchmark: one short line.\n';
const FINAL_ANSWER = 'All direct calls are done.';
const USAGE = { input_tokens: 100, output_tokens: 10 };

/** What to measure. */
export interface LeadToolOptions {
  /** Direct calls per lead run (1..{@link MAX_LEAD_TOOL_CALLS}). */
  readonly calls: number;
  readonly reps: number;
  readonly warmup: number;
}

/** One shape: the deerflow lead runs and the raw anchor of the same shape. */
export interface LeadToolMeasurement {
  readonly shape: LeadToolShape;
  readonly calls: number;
  readonly raw: Variant;
  readonly deerflow: Variant;
}

function modelName(shape: LeadToolShape, calls: number): string {
  return `bench-tools-${shape}-${calls}`;
}

/** Lead model turns of one run: the responses with calls, then the final answer. */
export function leadTurns(shape: LeadToolShape, calls: number): number {
  return shape === 'parallel' ? 2 : calls + 1;
}

/** Lead scenario of one shape: `calls` `read_file` calls of the thread's `notes-<i>.txt`, then the answer. */
function scenarioFor(shape: LeadToolShape, calls: number): Record<string, unknown> {
  const call = (index: number) => ({ name: TOOL, args: { path: fileName(index) } });
  const responses =
    shape === 'parallel'
      ? [{ tool_calls: Array.from({ length: calls }, (_, index) => call(index)), usage: USAGE }]
      : Array.from({ length: calls }, (_, index) => ({ tool_calls: [call(index)], usage: USAGE }));
  return { lead: [...responses, { content: FINAL_ANSWER, usage: USAGE }] };
}

/** The scripted models of both shapes, for the benchmark's config (`createDeerflowBench({ extraModels })`). */
export function leadToolModels(calls: number): ScriptedModel[] {
  return LEAD_TOOL_SHAPES.map((shape) => ({ name: modelName(shape, calls), scenario: scenarioFor(shape, calls) }));
}

function shapeText(shape: LeadToolShape, calls: number): string {
  return shape === 'parallel' ? `parallel: ${calls} calls in 1 response` : `sequential: 1 call x ${calls} responses`;
}

function rawText(shape: LeadToolShape, calls: number): string {
  return shape === 'parallel' ? `${calls} parallel activities` : `${calls} sequential activities`;
}

/** A benchmark of failed calls measures nothing: insist that every call read the file and the run answered. */
function checkRun(state: LeadRunState, shape: LeadToolShape, calls: number, workflowId: string): void {
  const completed = state.leadTools.filter((t) => t.tool === TOOL && t.status === 'completed');
  const turns = new Set(state.leadTools.map((t) => t.turn)).size;
  const expectedTurns = leadTurns(shape, calls) - 1;
  if (state.status !== 'completed' || state.finalMessageBrief !== FINAL_ANSWER || state.tasks.length !== 0 || state.leadTools.length !== calls || completed.length !== calls || turns !== expectedTurns) {
    const statuses = state.leadTools.map((t) => `${t.callId} ${t.tool} ${t.status}${t.error ? ` (${t.error})` : ''}`).join(', ');
    throw new Error(
      `lead run ${workflowId} (${shape}) ended ${state.status} with ${completed.length}/${calls} direct calls completed ` +
        `over ${turns} of ${expectedTurns} turns${state.error ? `; ${state.error}` : ''}: ${statuses}`,
    );
  }
}

/**
 * Measures both shapes and their raw anchors, interleaved: raw parallel, deerflow parallel, raw
 * sequential, deerflow sequential, ... Every deerflow repetition runs on a new thread whose
 * workspace already holds the `notes-<i>.txt` files (written untimed, before the clock starts).
 */
export async function measureLeadTools(client: Client, deerflow: DeerflowBench, options: LeadToolOptions): Promise<LeadToolMeasurement[]> {
  const { calls } = options;
  const dataDir = deerflow.loaded.config.store.data_dir;
  let sequence = 0;
  const deerflowVariant = (shape: LeadToolShape): Variant => {
    let threadId = '';
    const prepare = async () => {
      threadId = `bench-tools-${shape}-${++sequence}`;
      const workspace = new ThreadWorkspace(dataDir, threadId).hostWorkspace;
      await mkdir(workspace, { recursive: true });
      await Promise.all(Array.from({ length: calls }, (_, index) => writeFile(join(workspace, fileName(index)), FILE_TEXT)));
    };
    const run = async () => {
      const started = await deerflow.client.startRun({ message: `Read notes-0.txt to notes-${calls - 1}.txt.`, threadId, modelName: modelName(shape, calls) });
      checkRun((await started.handle.result()) as LeadRunState, shape, calls, started.workflowId);
      return [started.workflowId];
    };
    return variant(`deerflow ${shape}`, run, prepare);
  };
  // Raw activities on a worker with `calls` slots: no admission limit, like `runLeadTool`.
  const rawParallel = variant(`raw ${rawText('parallel', calls)}`, async () => [await runBaseline(client, calls, calls)]);
  const rawSequential = variant(`raw ${rawText('sequential', calls)}`, async () => [await runBaselineSequence(client, calls, calls)]);
  const parallel = deerflowVariant('parallel');
  const sequential = deerflowVariant('sequential');
  await measureInterleaved([rawParallel, parallel, rawSequential, sequential], options.warmup, options.reps);
  return [
    { shape: 'parallel', calls, raw: rawParallel, deerflow: parallel },
    { shape: 'sequential', calls, raw: rawSequential, deerflow: sequential },
  ];
}

/** Wall time, ratios and CPU per direct call of both shapes. */
export function leadToolReport(options: LeadToolOptions, results: readonly LeadToolMeasurement[]): string {
  const perCall = (v: Variant, field: 'wallMs' | 'cpuMs') => perUnit(v, options.calls, field);
  // One raw activity round trip in a running workflow: the sequential anchor per activity.
  const roundTrip = results.find((m) => m.shape === 'sequential')?.raw;
  const absolute = table(
    ['shape', 'lead turns', 'raw anchor (same shape)', 'raw ms/call', 'deerflow ms/call', 'deerflow ms/run'],
    results.map((m) => [
      shapeText(m.shape, m.calls),
      String(leadTurns(m.shape, m.calls)),
      rawText(m.shape, m.calls),
      medMin(perCall(m.raw, 'wallMs')),
      medMin(perCall(m.deerflow, 'wallMs')),
      medMin(m.deerflow.samples.map((s) => s.wallMs), 0),
    ]),
  );
  const ratios = table(
    ['shape', 'deerflow / raw same shape', 'deerflow / raw round trip'],
    results.map((m) => {
      const d = perCall(m.deerflow, 'wallMs');
      return [shapeText(m.shape, m.calls), ratio(d, perCall(m.raw, 'wallMs')), roundTrip ? ratio(d, perCall(roundTrip, 'wallMs')) : '-'];
    }),
  );
  const cpu = table(
    ['shape', 'raw CPU ms/call', 'deerflow CPU ms/call', 'ratio'],
    results.map((m) => {
      const d = perCall(m.deerflow, 'cpuMs');
      const r = perCall(m.raw, 'cpuMs');
      return [shapeText(m.shape, m.calls), fixed(median(r), 2), fixed(median(d), 2), `${fixed(median(d) / median(r), 1)}x`];
    }),
  );
  return [
    `Lead direct tool calls: ${options.calls} ${TOOL} calls per lead run, each one runLeadTool activity on the deerflow queue.`,
    `Wall time per call, ms (median / min over ${options.reps} reps; every run includes start, all lead turns, all calls and completion):`,
    absolute,
    '',
    'Overhead ratio per direct call (median / median, then min / min); raw round trip = raw sequential ms/call:',
    ratios,
    '',
    'CPU time per direct call of this process (all workers + client), median:',
    cpu,
  ].join('\n');
}

/** Where the time of the last measured repetition of each shape went (per direct call). */
export async function leadToolHistoryReport(client: Client, results: readonly LeadToolMeasurement[]): Promise<string> {
  const parts = ['Lead direct tool calls, where the time goes (last measured repetition, per call):'];
  for (const m of results) {
    const deerflow = await profileWorkflows(client, m.deerflow.workflowIds.at(-1) ?? []);
    const raw = await profileWorkflows(client, m.raw.workflowIds.at(-1) ?? []);
    parts.push(
      '',
      shapeText(m.shape, m.calls),
      profileText(`deerflow (${leadTurns(m.shape, m.calls)} lead turns)`, deerflow, m.calls, 'call'),
      profileText(m.raw.label, raw, m.calls, 'call'),
    );
  }
  return parts.join('\n');
}
