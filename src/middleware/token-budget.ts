import type { MessageContent } from '@langchain/core/messages';
import type { StopReason } from '../contracts';

/**
 * Pure decisions of the token budget guard (SPEC §6.2) and the pieces it shares with the loop
 * guard: presence-based run keys, bounded maps and the forced-final-answer rewrite of an AI message.
 */

/** Most runs a guard keeps state or stop reasons for; the oldest insert is evicted first. */
export const GUARD_MAX_TRACKED_RUNS = 1000;
/** `name` of the request-only HumanMessage carrying budget warnings. */
export const BUDGET_WARNING_NAME = 'budget_warning';
/** Stop reason recorded when the budget hard stop fires. */
export const TOKEN_CAPPED: StopReason = 'token_capped';

/** The budget fields the decision reads; a parsed `TokenBudgetConfig` fits. */
export interface TokenBudgetLimits {
  readonly enabled: boolean;
  readonly max_tokens: number;
  readonly max_input_tokens: number | null;
  readonly max_output_tokens: number | null;
  readonly warn_threshold: number;
  readonly hard_stop_threshold: number;
}

/** A transcript message as the guard reads it; LangChain message instances fit. */
export interface BudgetMessage {
  readonly type?: string;
  readonly id?: string;
  readonly usage_metadata?: { readonly input_tokens?: number; readonly output_tokens?: number };
}

/** Cumulative usage of one run; `total` is always `input + output`. */
export interface TokenTotals {
  readonly input: number;
  readonly output: number;
  readonly total: number;
}

/** Per-run budget state; replaced, never mutated. */
export interface RunBudgetState {
  readonly warned: boolean;
  readonly pending: readonly string[];
  /** Usage already counted per AI message id: `[input, output]`. */
  readonly seen: ReadonlyMap<string, readonly [number, number]>;
  readonly usage: TokenTotals;
}

/** Which budget is closest to its limit. */
export type BudgetReason = 'total' | 'input' | 'output';

/** The most-used budget: its reason word, usage, limit and fraction used. */
export interface BudgetUse {
  readonly reason: BudgetReason;
  readonly used: number;
  readonly budget: number;
  readonly fraction: number;
}

/** What the guard does with a model response: nothing, queue a warning (state only), or force a final answer. */
export type BudgetAction =
  | { readonly kind: 'none' }
  | { readonly kind: 'warn'; readonly message: string }
  | { readonly kind: 'stop'; readonly message: string };

/** A run before any model call. */
export const EMPTY_RUN_BUDGET: RunBudgetState = {
  warned: false,
  pending: [],
  seen: new Map(),
  usage: { input: 0, output: 0, total: 0 },
};

/** A guard that ended a run early reports why, once (SPEC Appendix D; duck-typed by the executor). */
export interface StopReasonSource {
  /** Returns and forgets the stop reason recorded for `runId`; null when none. */
  consumeStopReason(runId: string | null): StopReason | null;
}

/** Key of a run's guard state: the context `run_id` (may be null) or a per-invocation fallback. */
export type RunKey = string | null;

/**
 * `run_id` when the context HAS the key, even with a null value (the executor always sets it);
 * otherwise `fallback()`, a key unique to the invocation.
 */
export function resolveRunKey(context: object, fallback: () => string): RunKey {
  if (!('run_id' in context)) return fallback();
  const runId: unknown = (context as { run_id?: unknown }).run_id;
  return typeof runId === 'string' ? runId : null;
}

/** The stream writer as LangChain exposes it on a hook's runtime. */
export interface InvocationRuntime {
  readonly writer?: unknown;
}

/**
 * Fallback run keys, one per agent invocation. LangChain hands every hook a fresh frozen runtime,
 * so the runtime object itself cannot key an invocation; the stream writer LangGraph creates once
 * per `invoke`/`stream` call is the one object every hook of that invocation shares (an agent run
 * nested in another graph inherits the outer writer, hence its key). Without a writer (hooks called
 * by hand) all calls share `<prefix>:shared`.
 */
export function invocationKeyer(prefix: string): (runtime: InvocationRuntime) => string {
  const keys = new WeakMap<object, string>();
  let next = 0;
  return (runtime) => {
    const writer = runtime.writer;
    if ((typeof writer !== 'function' && typeof writer !== 'object') || writer === null) return `${prefix}:shared`;
    let key = keys.get(writer);
    if (key === undefined) {
      next += 1;
      key = `${prefix}:invocation-${next}`;
      keys.set(writer, key);
    }
    return key;
  };
}

/** `1234567` → `"1,234,567"`, rounded to an integer; no locale data, so identical everywhere. */
export function withThousands(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function usageOf(m: BudgetMessage): [number, number] {
  const u = m.usage_metadata;
  const n = (v: number | undefined) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);
  return [n(u?.input_tokens), n(u?.output_tokens)];
}

/** Records every AI message's current usage as already counted (messages from prior runs). */
export function markMessagesSeen(state: RunBudgetState, messages: readonly BudgetMessage[]): RunBudgetState {
  const seen = new Map(state.seen);
  for (const m of messages) {
    if (m.type === 'ai' && typeof m.id === 'string') seen.set(m.id, usageOf(m));
  }
  return { ...state, seen };
}

/**
 * Adds every AI message's growth since it was last seen; total grows by the input and output
 * deltas (never from `total_tokens`, which providers report inconsistently).
 */
export function accountUsage(state: RunBudgetState, messages: readonly BudgetMessage[]): RunBudgetState {
  const seen = new Map(state.seen);
  let { input, output } = state.usage;
  for (const m of messages) {
    if (m.type !== 'ai' || typeof m.id !== 'string') continue;
    const [curIn, curOut] = usageOf(m);
    const [prevIn, prevOut] = seen.get(m.id) ?? [0, 0];
    input += Math.max(0, curIn - prevIn);
    output += Math.max(0, curOut - prevOut);
    seen.set(m.id, [curIn, curOut]);
  }
  return { ...state, seen, usage: { input, output, total: input + output } };
}

/** The budget with the highest fraction used; ties keep the earlier of total, input, output. */
export function highestBudgetUse(usage: TokenTotals, limits: TokenBudgetLimits): BudgetUse {
  const candidates: BudgetUse[] = [
    { reason: 'total', used: usage.total, budget: limits.max_tokens, fraction: usage.total / limits.max_tokens },
  ];
  if (limits.max_input_tokens !== null) {
    const b = limits.max_input_tokens;
    candidates.push({ reason: 'input', used: usage.input, budget: b, fraction: usage.input / b });
  }
  if (limits.max_output_tokens !== null) {
    const b = limits.max_output_tokens;
    candidates.push({ reason: 'output', used: usage.output, budget: b, fraction: usage.output / b });
  }
  return candidates.reduce((best, c) => (c.fraction > best.fraction ? c : best));
}

/** The text appended to the final AI message at the hard stop. */
export function tokenBudgetExceededMessage(use: BudgetUse): string {
  return (
    `[TOKEN BUDGET EXCEEDED] Your ${use.reason} token usage (${withThousands(use.used)}) has exceeded ` +
    `the safety limit (${withThousands(use.budget)}). Tool calls have been stopped; ` +
    'give your final answer now from the information you already have.'
  );
}

/** The warning sent (request-only) once per run at the warn threshold. */
export function tokenBudgetWarningMessage(use: BudgetUse): string {
  const pct = Math.round(use.fraction * 100);
  return (
    `[TOKEN BUDGET WARNING] You have used ${withThousands(use.used)} of your ${withThousands(use.budget)} ` +
    `${use.reason} token budget (${pct}%). Start wrapping up: avoid new exploration, ` +
    'finish the essential steps and give your final answer soon.'
  );
}

/**
 * One model response checked: account the new usage, then hard stop, warn once, or do nothing.
 * Disabled, empty or non-AI-last transcripts change nothing (not even the accounting).
 */
export function decideTokenBudget(
  state: RunBudgetState,
  messages: readonly BudgetMessage[],
  limits: TokenBudgetLimits,
): { readonly state: RunBudgetState; readonly action: BudgetAction } {
  const last = messages[messages.length - 1];
  if (!limits.enabled || last === undefined || last.type !== 'ai') return { state, action: { kind: 'none' } };
  const next = accountUsage(state, messages);
  if (next.usage.total <= 0) return { state: next, action: { kind: 'none' } };
  const use = highestBudgetUse(next.usage, limits);
  if (use.fraction >= limits.hard_stop_threshold) {
    return { state: next, action: { kind: 'stop', message: tokenBudgetExceededMessage(use) } };
  }
  if (use.fraction >= limits.warn_threshold && !next.warned) {
    const message = tokenBudgetWarningMessage(use);
    return { state: { ...next, warned: true, pending: [...next.pending, message] }, action: { kind: 'warn', message } };
  }
  return { state: next, action: { kind: 'none' } };
}

/** An AI message as the forced-final-answer rewrite reads it. */
export interface CappableAiMessage {
  readonly content: unknown;
  readonly additional_kwargs?: Readonly<Record<string, unknown>>;
  readonly response_metadata?: Readonly<Record<string, unknown>>;
}

/** Fields that turn an AI message into a final answer (keep its id so it replaces the original). */
export interface CappedAiFields {
  readonly content: MessageContent;
  readonly tool_calls: [];
  readonly additional_kwargs: Record<string, unknown>;
  readonly response_metadata: Record<string, unknown>;
}

/**
 * Appends `note` after a blank line: absent content → note; a string (even "") → `content\n\nnote`;
 * a block list → a new list with a `\n\nnote` text block; anything else is stringified first.
 */
export function appendNote(content: unknown, note: string): MessageContent {
  if (content === null || content === undefined) return note;
  if (typeof content === 'string') return `${content}\n\n${note}`;
  if (Array.isArray(content)) return [...(content as Exclude<MessageContent, string>), { type: 'text', text: `\n\n${note}` }];
  return `${String(content)}\n\n${note}`;
}

/**
 * Strips every tool call (parsed and the provider's raw `tool_calls` / `function_call`), turns
 * finish reason `tool_calls` into `stop` and appends `note`, so the agent loop ends on this message.
 */
export function capAiMessage(message: CappableAiMessage, note: string): CappedAiFields {
  const { tool_calls: _raw, function_call: _fn, ...additional_kwargs } = message.additional_kwargs ?? {};
  const response_metadata: Record<string, unknown> = { ...message.response_metadata };
  if (response_metadata.finish_reason === 'tool_calls') response_metadata.finish_reason = 'stop';
  return { content: appendNote(message.content, note), tool_calls: [], additional_kwargs, response_metadata };
}
