/**
 * Deterministic run-event workload for the event-store benchmark: `subagent.start`, `subagent.step`
 * and `subagent.end` rows shaped like the ones `StepEventBuffer` and `recordTaskEnd` write, for many
 * runs in flight at once, so that the rows of one run are spread over the table as in production.
 */
import { SUBAGENT_EVENT_CATEGORY } from '../../src/contracts';
import type { NewRunEvent } from '../../src/store';

/** Events per run: TASKS_PER_RUN tasks, each `subagent.start` + its steps + `subagent.end`. */
export const EVENTS_PER_RUN = 1000;
export const TASKS_PER_RUN = 8;
/** Runs whose tasks write at the same time; a new run starts when one finishes. */
export const ACTIVE_RUNS = 16;
/** A task's rows enter the stream in chunks of this many (the production flush size). */
export const TASK_CHUNK = 25;

/** mulberry32: small, fast, deterministic. Returns floats in [0, 1). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const WORDS = (
  'the a of to and in is for that with on as by this from are be it or an at which results source report data ' +
  'function error value file table query index request response agent task step search found page section ' +
  'analysis summary model token latency throughput benchmark configuration version release update issue ' +
  'database schema migration worker workflow activity timeout retry cache memory'
).split(' ');
const TOOLS = ['web_search', 'web_fetch', 'read_file', 'write_file', 'bash', 'ls', 'str_replace'] as const;
const SUBAGENTS = ['general-purpose', 'bash', 'researcher'] as const;
const MODEL = 'gpt-4o-mini';

interface TaskPlan {
  readonly taskId: string;
  /** Number of `subagent.step` rows. */
  readonly steps: number;
  /** Rows of this task already emitted (start, steps, end). */
  emitted: number;
}

interface RunPlan {
  readonly runId: string;
  readonly threadId: string;
  readonly tasks: TaskPlan[];
  unfinished: number;
}

/** One generated row with what the benchmark needs to know about it to build and check queries. */
export interface GeneratedEvent {
  readonly row: NewRunEvent;
  readonly run: number;
  readonly task: number;
  /** The step in the middle of its task: its seq is where the deep task page starts. */
  readonly mid: boolean;
}

/**
 * The stream of rows of `total` events: ceil(total / EVENTS_PER_RUN) runs, ACTIVE_RUNS of them at
 * a time; the next chunk of TASK_CHUNK rows comes from a random task in flight. The stream stops
 * after `total` rows (the last runs are cut short when `total` is not a multiple of EVENTS_PER_RUN).
 */
export class Workload {
  readonly runCount: number;
  readonly runIds: string[] = [];
  readonly taskIds: string[][] = [];
  private readonly random: () => number;
  private readonly runs: RunPlan[] = [];
  private readonly active: Array<{ run: number; task: number }> = [];
  private produced = 0;

  constructor(
    readonly total: number,
    seed = 42,
  ) {
    this.random = prng(seed);
    this.runCount = Math.ceil(total / EVENTS_PER_RUN);
    for (let i = 0; i < Math.min(ACTIVE_RUNS, this.runCount); i++) this.startRun();
  }

  /** The next `n` rows of the stream; fewer (or none) at its end. */
  next(n: number): GeneratedEvent[] {
    const out: GeneratedEvent[] = [];
    while (out.length < n && this.produced < this.total && this.active.length > 0) {
      const slot = Math.floor(this.random() * this.active.length);
      const { run, task } = this.active[slot]!;
      const plan = this.runs[run]!;
      const t = plan.tasks[task]!;
      const chunk = Math.min(TASK_CHUNK, t.steps + 2 - t.emitted, n - out.length, this.total - this.produced);
      for (let i = 0; i < chunk; i++) out.push(this.emit(run, task));
      this.produced += chunk;
      if (t.emitted === t.steps + 2) {
        this.active[slot] = this.active[this.active.length - 1]!;
        this.active.pop();
        if (--plan.unfinished === 0 && this.runs.length < this.runCount) this.startRun();
      }
    }
    return out;
  }

  private id(prefix: string, length: number): string {
    let s = prefix;
    for (let i = 0; i < length; i++) s += ALNUM[Math.floor(this.random() * ALNUM.length)];
    return s;
  }

  private startRun(): void {
    const index = this.runs.length;
    // Split the run's step budget over its tasks, unevenly (weights 1..3), every task >= 1 step.
    const stepBudget = EVENTS_PER_RUN - 2 * TASKS_PER_RUN;
    const weights = Array.from({ length: TASKS_PER_RUN }, () => 1 + 2 * this.random());
    const sum = weights.reduce((a, b) => a + b, 0);
    const steps = weights.map((w) => Math.max(1, Math.floor((w / sum) * stepBudget)));
    steps[0]! += stepBudget - steps.reduce((a, b) => a + b, 0);
    const runId = `run_${this.id('', 8)}-${this.id('', 4)}-${this.id('', 4)}-${this.id('', 12)}`;
    const tasks = steps.map((s) => ({ taskId: this.id('call_', 24), steps: s, emitted: 0 }));
    this.runs.push({ runId, threadId: `thread_${this.id('', 32)}`, tasks, unfinished: tasks.length });
    this.runIds.push(runId);
    this.taskIds.push(tasks.map((t) => t.taskId));
    tasks.forEach((_, task) => this.active.push({ run: index, task }));
  }

  private emit(run: number, task: number): GeneratedEvent {
    const plan = this.runs[run]!;
    const t = plan.tasks[task]!;
    const position = t.emitted++;
    const base = { runId: plan.runId, threadId: plan.threadId, category: SUBAGENT_EVENT_CATEGORY, taskId: t.taskId };
    if (position === 0) {
      const payload = {
        task_id: t.taskId,
        description: this.words(30, 90),
        subagent: SUBAGENTS[Math.floor(this.random() * SUBAGENTS.length)],
        model_name: MODEL,
        attempt: 1,
      };
      return { row: { ...base, dedupeKey: `start:${plan.runId}:${t.taskId}`, event: 'subagent.start', payload }, run, task, mid: false };
    }
    if (position === t.steps + 1) {
      const payload = {
        task_id: t.taskId,
        status: 'completed',
        model_name: MODEL,
        usage: this.usage(),
        result: this.words(200, 600),
      };
      return { row: { ...base, dedupeKey: `end:${plan.runId}:${t.taskId}`, event: 'subagent.end', payload }, run, task, mid: false };
    }
    const index = position - 1;
    return {
      row: { ...base, dedupeKey: `step:${plan.runId}:${t.taskId}:1:${index}`, event: 'subagent.step', payload: this.step(t, index) },
      run,
      task,
      mid: index === Math.floor(t.steps / 2),
    };
  }

  /** A `subagent.step` payload as StepEventBuffer writes it (`{ ...step, usage }`): ~300-800 bytes of JSON. */
  private step(t: TaskPlan, index: number): unknown {
    // Steps alternate model turn -> tool output; the last step is the final answer without tool calls.
    const isTool = index % 2 === 1 && index !== t.steps - 1;
    const tool = TOOLS[Math.floor(index / 2 + t.taskId.charCodeAt(5)) % TOOLS.length]!;
    if (isTool) {
      return { task_id: t.taskId, message_index: index, kind: 'tool', text: this.words(180, 650), truncated: false, tool_name: tool, usage: null };
    }
    const last = index === t.steps - 1;
    return {
      task_id: t.taskId,
      message_index: index,
      kind: 'ai',
      text: this.words(60, 380),
      truncated: false,
      tool_calls: last ? [] : [{ name: tool, args: this.toolArgs(tool) }],
      usage: this.usage(),
    };
  }

  private toolArgs(tool: (typeof TOOLS)[number]): unknown {
    switch (tool) {
      case 'web_search':
        return { query: this.words(20, 60) };
      case 'web_fetch':
        return { url: `https://example.com/${this.id('', 10)}/${this.id('', 6)}` };
      case 'bash':
        return { description: this.words(10, 40), command: `grep -rn ${this.id('', 8)} /mnt/user-data/workspace | head -50` };
      case 'str_replace':
        return { path: `/mnt/user-data/workspace/${this.id('', 8)}.md`, old_str: this.words(10, 40), new_str: this.words(10, 40) };
      default:
        return { path: `/mnt/user-data/workspace/${this.id('', 8)}.md` };
    }
  }

  private usage(): { input_tokens: number; output_tokens: number; total_tokens: number } {
    const input = 500 + Math.floor(this.random() * 20000);
    const output = 20 + Math.floor(this.random() * 800);
    return { input_tokens: input, output_tokens: output, total_tokens: input + output };
  }

  /** Words up to a random length in [min, max] characters. */
  private words(min: number, max: number): string {
    const target = min + Math.floor(this.random() * (max - min + 1));
    let s = '';
    while (s.length < target) s += (s === '' ? '' : ' ') + WORDS[Math.floor(this.random() * WORDS.length)];
    return s.slice(0, target);
  }
}
