import { createHash } from 'node:crypto';
import { AIMessage, HumanMessage, type BaseMessage } from '@langchain/core/messages';
import { createMiddleware } from 'langchain';
import type { z } from 'zod';
import { LoopDetectionConfigSchema } from '../../config/schema';
import type { StopReason } from '../../contracts';
import {
  hashToolCalls,
  LOOP_CAPPED,
  LOOP_WARNING_NAME,
  observeToolCalls,
  queueWarning,
  replayToolCallHistory,
  resolveThreadKey,
  type ThreadLoopState,
} from '../loop-detection';
import { BoundedMap } from '../../contracts/bounded-map';
import { GUARD_MAX_TRACKED_RUNS, invocationKeyer, resolveRunKey, type RunKey, type StopReasonSource } from '../token-budget';
import { forcedFinalAnswer, GuardContextSchema, type GuardRuntime } from './token-budget-middleware';

/** Name the loop guard registers under (graph nodes are `<name>.before_agent` etc.). */
export const LOOP_DETECTION_MIDDLEWARE_NAME = 'LoopDetectionMiddleware';

/** Options of {@link loopDetectionMiddleware}: a `LoopDetectionConfig` before defaults. */
export type LoopDetectionMiddlewareOptions = z.input<typeof LoopDetectionConfigSchema>;

/** Warnings waiting for one run's next model request. */
interface PendingWarnings {
  readonly thread: string;
  readonly run: RunKey;
  readonly warnings: readonly string[];
}

function md5(text: string): string {
  return createHash('md5').update(text, 'utf8').digest('hex');
}

/**
 * Loop guard (SPEC §6.3). After each tool-calling model response it hashes the call set (layer 1)
 * and counts calls per tool (layer 2) for the thread (`runtime.context.thread_id`, else
 * `"default"`). Warnings reach only the next model request of the same run, as one trailing
 * `HumanMessage` named `loop_warning` (never saved to state, never between a tool call and its
 * result). A hard stop returns a final answer in place of the response (tool calls stripped, note
 * appended), so the calls never enter state, and records `loop_capped` for
 * {@link StopReasonSource.consumeStopReason}. The check runs in the model call's wrap hook, after
 * the call, not in an `afterModel` hook: every hook node is a graph step of its own, and each costs
 * LangGraph's per-step overhead on every model turn.
 *
 * Threads are kept least-recently-used, at most `max_tracked_threads`; pending warnings for at
 * most twice as many (thread, run) pairs, 4 per run; stop reasons for 1000 runs, until consumed.
 * Runs are keyed like the token budget's: `context.run_id` when present (null included).
 *
 * @throws ZodError when `options` is not a valid `LoopDetectionConfig`.
 */
export function loopDetectionMiddleware(options: LoopDetectionMiddlewareOptions = {}) {
  const limits = LoopDetectionConfigSchema.parse(options);
  const threads = new BoundedMap<string, ThreadLoopState>(limits.max_tracked_threads);
  const pending = new BoundedMap<string, PendingWarnings>(Math.max(1, limits.max_tracked_threads * 2));
  const stopReasons = new BoundedMap<RunKey, StopReason>(GUARD_MAX_TRACKED_RUNS);
  const fallbackKey = invocationKeyer('loop-detection');
  const runKey = (runtime: GuardRuntime): RunKey => resolveRunKey(runtime.context, () => fallbackKey(runtime));
  const pendingKey = (thread: string, run: RunKey) => JSON.stringify([thread, run]);

  const dropPending = (keep: (p: PendingWarnings) => boolean) => {
    for (const [key, p] of [...pending.entries()]) if (!keep(p)) pending.delete(key);
  };

  /** The request with the run's queued warnings as one trailing message (none queued: the request as it is). */
  const withWarnings = <R extends { readonly messages: BaseMessage[] }>(request: R, queued: PendingWarnings | undefined): R => {
    if (queued === undefined || queued.warnings.length === 0) return request;
    // Last in the request, after any ToolMessages, so tool-call/result pairs stay adjacent.
    const warning = new HumanMessage({ content: queued.warnings.join('\n\n'), name: LOOP_WARNING_NAME });
    return { ...request, messages: [...request.messages, warning] };
  };

  /** Takes the warnings a model call delivered off the queue; any queued since stay. */
  const delivered = (key: string, sent: PendingWarnings | undefined) => {
    if (sent === undefined) return;
    const current = pending.get(key);
    const rest = current === undefined ? [] : current.warnings.filter((w) => !sent.warnings.includes(w));
    if (current === undefined || rest.length === 0) pending.delete(key);
    else pending.set(key, { ...current, warnings: rest });
  };

  const middleware = createMiddleware({
    name: LOOP_DETECTION_MIDDLEWARE_NAME,
    contextSchema: GuardContextSchema,
    beforeAgent: (_state, runtime) => {
      if (!limits.enabled) return undefined;
      const thread = resolveThreadKey(runtime.context);
      const run = runKey(runtime);
      // Warnings from an earlier run of this thread that never reached a model are stale now.
      dropPending((p) => p.thread !== thread || p.run === run);
      return undefined;
    },
    wrapModelCall: async (request, handler) => {
      const thread = resolveThreadKey(request.runtime.context);
      const run = runKey(request.runtime);
      const key = pendingKey(thread, run);
      // Taken off the queue only once a call answered: a call that throws (and is tried again by
      // the LLM error handling around this guard) must not lose them.
      const sent = pending.get(key);
      const response = await handler(withWarnings(request, sent));
      delivered(key, sent);
      if (!limits.enabled || !AIMessage.isInstance(response)) return response;
      const calls = response.tool_calls ?? [];
      if (calls.length === 0) return response;
      // No state yet but earlier responses in the conversation: a resumed execution rebuilds it.
      const before = threads.get(thread) ?? replayToolCallHistory(request.state.messages, md5, limits);
      const { state: after, action } = observeToolCalls(before, calls, hashToolCalls(calls, md5), limits);
      const evicted = new Set(threads.touch(thread, after));
      if (evicted.size > 0) dropPending((p) => !evicted.has(p.thread));
      if (action.kind === 'warn') {
        const queued = pending.get(key)?.warnings ?? [];
        pending.set(key, { thread, run, warnings: queueWarning(queued, action.message) });
        return response;
      }
      if (action.kind !== 'stop') return response;
      stopReasons.set(run, LOOP_CAPPED);
      // Returned in place of the response, so its tool calls never enter state.
      return forcedFinalAnswer(response, action.message);
    },
    afterAgent: (_state, runtime) => {
      pending.delete(pendingKey(resolveThreadKey(runtime.context), runKey(runtime)));
      return undefined;
    },
  });

  const channel: StopReasonSource & { reset(threadId?: string): void } = {
    consumeStopReason: (runId) => stopReasons.pop(runId) ?? null,
    /** Forgets one thread's history and warnings, or (no argument) everything incl. stop reasons. */
    reset: (threadId) => {
      if (threadId === undefined) {
        threads.clear();
        pending.clear();
        stopReasons.clear();
        return;
      }
      threads.delete(threadId);
      dropPending((p) => p.thread !== threadId);
    },
  };
  return Object.assign(middleware, channel);
}

/** What {@link loopDetectionMiddleware} returns: a LangChain middleware plus the stop-reason channel. */
export type LoopDetectionMiddleware = ReturnType<typeof loopDetectionMiddleware>;
