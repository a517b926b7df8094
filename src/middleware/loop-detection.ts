import type { StopReason } from '../contracts';

/**
 * Pure decisions of the loop guard (SPEC §6.3): a stable hash of each response's tool-call set
 * (layer 1: identical sets repeated within a window) and per-tool call counts (layer 2: one tool
 * called too often with varying arguments).
 */

/** At most this many warnings wait for one run's next model request. */
export const MAX_PENDING_WARNINGS_PER_RUN = 4;
/** `name` of the request-only HumanMessage carrying loop warnings. */
export const LOOP_WARNING_NAME = 'loop_warning';
/** Stop reason recorded when the loop hard stop fires. */
export const LOOP_CAPPED: StopReason = 'loop_capped';
/** Thread key used when the context has no thread id. */
export const DEFAULT_THREAD_KEY = 'default';
/** Lines per `read_file` bucket: reads within the same 200-line block count as the same call. */
export const READ_FILE_LINE_BUCKET = 200;

/** Tools whose full arguments matter (same file, different content is progress). */
const CONTENT_SENSITIVE_TOOLS = new Set(['write_file', 'str_replace']);
/** Argument fields that identify what most tools act on. */
const SALIENT_FIELDS = ['path', 'url', 'query', 'command', 'pattern', 'glob', 'cmd'] as const;

/** The thresholds the detector reads; a parsed `LoopDetectionConfig` fits. */
export interface LoopLimits {
  readonly warn_threshold: number;
  readonly hard_limit: number;
  readonly window_size: number;
  readonly tool_freq_warn: number;
  readonly tool_freq_hard_limit: number;
  readonly tool_freq_overrides: Readonly<Record<string, { readonly warn: number; readonly hard_limit: number }>>;
}

/** A tool call as the detector reads it; `args` may be a raw provider JSON string. */
export interface LoopToolCall {
  readonly name?: string;
  readonly args?: unknown;
}

/** One thread's detector state; replaced, never mutated. */
export interface ThreadLoopState {
  /** Call-set hashes of the last `window_size` tool-calling responses. */
  readonly hashes: readonly string[];
  readonly warnedHashes: readonly string[];
  /** Tool names called, last `toolFrequencyWindow(limits)` of them. */
  readonly toolNames: readonly string[];
  readonly warnedTools: readonly string[];
}

/** A thread with no tool calls seen yet. */
export const EMPTY_THREAD_LOOP_STATE: ThreadLoopState = { hashes: [], warnedHashes: [], toolNames: [], warnedTools: [] };

/** What the guard does with a model response: nothing, queue a warning, or force a final answer. */
export type LoopAction =
  | { readonly kind: 'none' }
  | { readonly kind: 'warn'; readonly message: string }
  | { readonly kind: 'stop'; readonly message: string };

/** A hex digest of UTF-8 text; injected so this module stays free of Node APIs. */
export type TextDigest = (text: string) => string;

/** JSON with object keys sorted at every level, so equal values serialize equally. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const record = v as Record<string, unknown>;
    return Object.fromEntries(Object.keys(record).sort().map((k) => [k, record[k]]));
  }) ?? String(value);
}

/** Arguments as a record, plus the key to use when they were not a record to begin with. */
export interface NormalizedArgs {
  readonly args: Readonly<Record<string, unknown>>;
  readonly fallback: string | null;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * A record stays as is; a JSON string is parsed (a record → that record, any other JSON → its
 * canonical JSON as fallback key, unparseable → the raw string); absent → `{}`; anything else →
 * its canonical JSON as fallback key.
 */
export function normalizeToolArgs(raw: unknown): NormalizedArgs {
  if (isRecord(raw)) return { args: raw, fallback: null };
  if (raw === null || raw === undefined) return { args: {}, fallback: null };
  if (typeof raw === 'string') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return { args: {}, fallback: raw };
    }
    return isRecord(parsed) ? { args: parsed, fallback: null } : { args: {}, fallback: canonicalJson(parsed) };
  }
  return { args: {}, fallback: canonicalJson(raw) };
}

function lineNumber(value: unknown, fallback: number): number {
  if (typeof value === 'number' && Number.isFinite(value)) return Math.trunc(value);
  if (typeof value === 'string' && /^\s*[+-]?\d+\s*$/.test(value)) return Number.parseInt(value, 10);
  return fallback;
}

function lineBucket(line: number): number {
  return Math.floor((Math.max(line, 1) - 1) / READ_FILE_LINE_BUCKET);
}

/**
 * What makes two calls of a tool "the same": `read_file` → `path:<bucket>-<bucket>` (200-line
 * buckets, range order ignored); `write_file`/`str_replace` → all arguments; others → the salient
 * fields present (`path, url, query, command, pattern, glob, cmd`), else the fallback key, else all
 * arguments.
 */
export function stableToolKey(name: string, rawArgs: unknown): string {
  const { args, fallback } = normalizeToolArgs(rawArgs);
  if (name === 'read_file') {
    const start = lineNumber(args.start_line, 1);
    const end = lineNumber(args.end_line, start);
    const [lo, hi] = start <= end ? [start, end] : [end, start];
    const path = typeof args.path === 'string' ? args.path : args.path == null ? '' : canonicalJson(args.path);
    return `${path}:${lineBucket(lo)}-${lineBucket(hi)}`;
  }
  if (CONTENT_SENSITIVE_TOOLS.has(name)) return fallback ?? canonicalJson(args);
  const salient = SALIENT_FIELDS.filter((f) => Object.hasOwn(args, f));
  if (salient.length > 0) return canonicalJson(Object.fromEntries(salient.map((f) => [f, args[f]])));
  return fallback ?? canonicalJson(args);
}

/** The order-independent text identity of one response's tool calls (hashed by {@link hashToolCalls}). */
export function toolCallsSignature(calls: readonly LoopToolCall[]): string {
  const keys = calls.map((c) => `${c.name ?? ''}:${stableToolKey(c.name ?? '', c.args)}`).sort();
  return canonicalJson(keys);
}

/** First 12 hex chars of `digest` (md5 in production) over {@link toolCallsSignature}. */
export function hashToolCalls(calls: readonly LoopToolCall[], digest: TextDigest): string {
  return digest(toolCallsSignature(calls)).slice(0, 12);
}

/** Layer 2 window: long enough that no hard limit is out of reach. */
export function toolFrequencyWindow(limits: LoopLimits): number {
  const overrides = Object.values(limits.tool_freq_overrides).map((o) => o.hard_limit);
  return Math.max(limits.window_size, limits.tool_freq_hard_limit, ...overrides);
}

/** The generic layer 1 hard-stop note. */
export function repeatedCallsStopMessage(limits: LoopLimits): string {
  return (
    `[FORCED STOP] Repeated tool calls exceeded the safety limit (${limits.hard_limit} identical tool-call ` +
    `sets within the last ${limits.window_size} tool-calling turns). Tool calls have been stopped; ` +
    'give your final answer now from the results you already have.'
  );
}

/** The layer 2 hard-stop note. */
export function toolFrequencyStopMessage(name: string, count: number, hardLimit: number): string {
  return (
    `[FORCED STOP] Tool ${name} called ${count} times — exceeded the per-tool safety limit (${hardLimit}). ` +
    'Tool calls have been stopped; give your final answer now from the results you already have.'
  );
}

/** The layer 1 warning. */
export const REPEATED_CALLS_WARNING =
  '[LOOP DETECTED] You are repeating the same tool calls. Repeating them will not produce new information: ' +
  'use the results you already have, change your approach, or give your final answer.';

/** The layer 2 warning. */
export function toolFrequencyWarning(name: string, count: number): string {
  return (
    `[LOOP DETECTED] You have called ${name} ${count} times without producing a final answer. ` +
    'Consider whether more calls are needed: summarize what you have or give your final answer.'
  );
}

function countOf(items: readonly string[], item: string): number {
  return items.reduce((n, x) => (x === item ? n + 1 : n), 0);
}

/**
 * One tool-calling response of a thread. Layer 1 first: the call-set hash joins the window; at
 * `hard_limit` occurrences → stop, at `warn_threshold` → warn once per hash while it stays in the
 * window. Only when layer 1 is silent, every call's tool name is counted (layer 2): at its hard
 * limit → stop at once; at its warn limit → warn once (one tool per response); below it the tool
 * may be warned about again later.
 */
export function observeToolCalls(
  state: ThreadLoopState,
  calls: readonly LoopToolCall[],
  hash: string,
  limits: LoopLimits,
): { readonly state: ThreadLoopState; readonly action: LoopAction } {
  const hashes = [...state.hashes, hash].slice(-limits.window_size);
  const inWindow = new Set(hashes);
  let warnedHashes = state.warnedHashes.filter((h) => inWindow.has(h));
  const count = countOf(hashes, hash);
  if (count >= limits.hard_limit) {
    return { state: { ...state, hashes, warnedHashes }, action: { kind: 'stop', message: repeatedCallsStopMessage(limits) } };
  }
  if (count >= limits.warn_threshold && !warnedHashes.includes(hash)) {
    warnedHashes = [...warnedHashes, hash];
    return { state: { ...state, hashes, warnedHashes }, action: { kind: 'warn', message: REPEATED_CALLS_WARNING } };
  }

  const window = toolFrequencyWindow(limits);
  let toolNames = state.toolNames;
  const warnedTools = new Set(state.warnedTools);
  let action: LoopAction = { kind: 'none' };
  for (const call of calls) {
    const name = call.name ?? '';
    if (name === '') continue;
    toolNames = [...toolNames, name].slice(-window);
    const used = countOf(toolNames, name);
    const override = Object.hasOwn(limits.tool_freq_overrides, name) ? limits.tool_freq_overrides[name] : undefined;
    const warn = override?.warn ?? limits.tool_freq_warn;
    const hard = override?.hard_limit ?? limits.tool_freq_hard_limit;
    if (used >= hard) {
      action = { kind: 'stop', message: toolFrequencyStopMessage(name, used, hard) };
      break;
    }
    if (used < warn) warnedTools.delete(name);
    else if (!warnedTools.has(name) && action.kind === 'none') {
      // One warning per response; another tool over its limit is warned about on a later response.
      warnedTools.add(name);
      action = { kind: 'warn', message: toolFrequencyWarning(name, used) };
    }
  }
  return { state: { hashes, warnedHashes, toolNames, warnedTools: [...warnedTools] }, action };
}

/** Adds a warning to a run's queue: no duplicates, the newest kept, at most 4. */
export function queueWarning(pending: readonly string[], message: string): string[] {
  return [...pending.filter((m) => m !== message), message].slice(-MAX_PENDING_WARNINGS_PER_RUN);
}

/** `context.thread_id` when it is a non-empty string, else {@link DEFAULT_THREAD_KEY}. */
export function resolveThreadKey(context: object): string {
  const threadId: unknown = (context as { thread_id?: unknown }).thread_id;
  return typeof threadId === 'string' && threadId !== '' ? threadId : DEFAULT_THREAD_KEY;
}

/** A message as {@link replayToolCallHistory} reads it; LangChain messages fit this shape. */
export interface ToolCallingMessage {
  readonly type: string;
  readonly tool_calls?: readonly LoopToolCall[] | null;
}

/**
 * The loop state a thread's history implies: every tool-calling response observed in order, its
 * actions dropped (they were taken when those responses were made). An execution that resumes
 * an earlier attempt's conversation starts from it, so repeats before the resume still count.
 */
export function replayToolCallHistory(messages: readonly ToolCallingMessage[], digest: TextDigest, limits: LoopLimits): ThreadLoopState {
  let state = EMPTY_THREAD_LOOP_STATE;
  for (const message of messages) {
    const calls = message.type === 'ai' ? (message.tool_calls ?? []) : [];
    if (calls.length > 0) state = observeToolCalls(state, calls, hashToolCalls(calls, digest), limits).state;
  }
  return state;
}
