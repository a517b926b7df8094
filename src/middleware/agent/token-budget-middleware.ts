import { randomUUID } from 'node:crypto';
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { createMiddleware } from 'langchain';
import { z } from 'zod';
import { TokenBudgetConfigSchema } from '../../config/schema';
import type { StopReason } from '../../contracts';
import { BoundedMap } from '../../contracts/bounded-map';
import {
  BUDGET_WARNING_NAME,
  capAiMessage,
  decideTokenBudget,
  EMPTY_RUN_BUDGET,
  GUARD_MAX_TRACKED_RUNS,
  invocationKeyer,
  markMessagesSeen,
  resolveRunKey,
  TOKEN_CAPPED,
  type InvocationRuntime,
  type RunBudgetState,
  type RunKey,
  type StopReasonSource,
} from '../token-budget';

/** Name the token budget guard registers under (graph nodes are `<name>.before_agent` etc.). */
export const TOKEN_BUDGET_MIDDLEWARE_NAME = 'TokenBudgetMiddleware';

/**
 * Context keys the guards read. Declared so LangChain passes them through: a hook's
 * `runtime.context` holds only the keys of its own middleware's `contextSchema`.
 */
export const GuardContextSchema = z.object({
  run_id: z.string().nullable().optional(),
  thread_id: z.string().nullable().optional(),
});

/** Options of {@link tokenBudgetMiddleware}: a `TokenBudgetConfig` before defaults. */
export type TokenBudgetMiddlewareOptions = z.input<typeof TokenBudgetConfigSchema>;

/** The run context fields a guard reads, plus the invocation's stream writer. */
export interface GuardRuntime extends InvocationRuntime {
  readonly context: object;
}

/**
 * The same message turned into a final answer: same id (so it replaces the original wherever it
 * is already in state), no tool calls (so the agent loop ends), `note` appended, usage kept.
 */
export function forcedFinalAnswer(last: AIMessage, note: string): AIMessage {
  return new AIMessage({
    id: last.id,
    name: last.name,
    usage_metadata: last.usage_metadata,
    invalid_tool_calls: last.invalid_tool_calls,
    ...capAiMessage(last, note),
  });
}

// Resolution lives with the config; the subagent chain and tests import it from here too.
export { defaultSubagentTokenBudget, resolveSubagentTokenBudget } from '../../config/token-budgets';

/**
 * Token budget guard (SPEC §6.2). Counts each run's token usage from the AI messages' usage
 * metadata; at `warn_threshold` it warns once per run through the next model request (a trailing
 * `HumanMessage` named `budget_warning`, never saved to state); at `hard_stop_threshold` it
 * returns a final answer in place of the response (tool calls stripped, note appended), so the calls
 * never enter state, and records `token_capped` for {@link StopReasonSource.consumeStopReason}. The
 * check runs in the model call's wrap hook, after the call, not in an `afterModel` hook: every hook
 * node is a graph step of its own, and each costs LangGraph's per-step overhead on every model turn.
 *
 * Runs are keyed by `runtime.context.run_id` when the key is present (null included), else per
 * invocation. Per-run state lives until `afterAgent`; stop reasons until consumed. Both maps keep
 * at most 1000 runs.
 *
 * @throws ZodError when `options` is not a valid `TokenBudgetConfig`.
 */
export function tokenBudgetMiddleware(options: TokenBudgetMiddlewareOptions = {}) {
  const limits = TokenBudgetConfigSchema.parse(options);
  const runs = new BoundedMap<RunKey, RunBudgetState>(GUARD_MAX_TRACKED_RUNS);
  const stopReasons = new BoundedMap<RunKey, StopReason>(GUARD_MAX_TRACKED_RUNS);
  const fallbackKey = invocationKeyer('token-budget');
  const runKey = (runtime: GuardRuntime): RunKey => resolveRunKey(runtime.context, () => fallbackKey(runtime));

  const middleware = createMiddleware({
    name: TOKEN_BUDGET_MIDDLEWARE_NAME,
    contextSchema: GuardContextSchema,
    beforeAgent: (state, runtime) => {
      if (!limits.enabled || state.messages.length === 0) return undefined;
      const key = runKey(runtime);
      // Usage of messages from earlier runs of the thread is not this run's spending.
      runs.set(key, markMessagesSeen(runs.get(key) ?? EMPTY_RUN_BUDGET, state.messages));
      return undefined;
    },
    wrapModelCall: async (request, handler) => {
      const key = runKey(request.runtime);
      const sent = runs.get(key)?.pending ?? [];
      let next = request;
      if (sent.length > 0) {
        // Last in the request, after any ToolMessages, so tool-call/result pairs stay adjacent.
        const warning = new HumanMessage({ content: sent.join('\n\n'), name: BUDGET_WARNING_NAME });
        next = { ...request, messages: [...request.messages, warning] };
      }
      const response = await handler(next);
      // Taken off the queue only once a call answered: a call that throws (and is tried again by
      // the LLM error handling around this guard) must not lose them.
      const answered = runs.get(key);
      if (sent.length > 0 && answered !== undefined) runs.set(key, { ...answered, pending: answered.pending.filter((w) => !sent.includes(w)) });
      if (!limits.enabled || !AIMessage.isInstance(response)) return response;
      // Usage is keyed by message id; state would give an id-less response one only after this check.
      if (typeof response.id !== 'string') response._updateId(randomUUID());
      const before = runs.get(key) ?? EMPTY_RUN_BUDGET;
      const { state: after, action } = decideTokenBudget(before, [...request.state.messages, response], limits);
      if (after !== before) runs.set(key, after);
      if (action.kind !== 'stop') return response;
      stopReasons.set(key, TOKEN_CAPPED);
      // Returned in place of the response, so its tool calls never enter state.
      return forcedFinalAnswer(response, action.message);
    },
    afterAgent: (_state, runtime) => {
      runs.delete(runKey(runtime));
      return undefined;
    },
  });

  const channel: StopReasonSource & { reset(): void } = {
    consumeStopReason: (runId) => stopReasons.pop(runId) ?? null,
    /** Forgets every run's state and stop reason. */
    reset: () => {
      runs.clear();
      stopReasons.clear();
    },
  };
  return Object.assign(middleware, channel);
}

/** What {@link tokenBudgetMiddleware} returns: a LangChain middleware plus the stop-reason channel. */
export type TokenBudgetMiddleware = ReturnType<typeof tokenBudgetMiddleware>;
