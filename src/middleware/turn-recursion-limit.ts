/** The node hooks of a langchain agent middleware that become graph steps. */
export interface MiddlewareHooks {
  readonly beforeAgent?: unknown;
  readonly beforeModel?: unknown;
  readonly afterModel?: unknown;
  readonly afterAgent?: unknown;
}

/**
 * The LangGraph `recursionLimit` that lets an agent make exactly `maxTurns` model calls.
 *
 * LangGraph counts graph steps, and in a langchain agent every node hook is a step of its own:
 * once, `beforeAgent` hooks; per turn, `beforeModel` hooks, the model, `afterModel` hooks and the
 * tools node. With F = beforeAgent hooks, B = beforeModel hooks and S = B + afterModel hooks + 2,
 * model call n runs at step F + B + 1 + (n - 1)S, so F + N·S + B admits call N (and its tools)
 * but not call N + 1. A final answer on call N must also get through the `afterAgent` hooks, which
 * needs afterAgent hooks <= B + 1.
 * @throws Error when the chain's shape makes an exact cap impossible (too many afterAgent hooks).
 */
export function recursionLimitForTurns(maxTurns: number, middleware: readonly MiddlewareHooks[]): number {
  const count = (hook: keyof MiddlewareHooks) => middleware.filter((m) => m[hook] !== undefined).length;
  const beforeAgent = count('beforeAgent');
  const beforeModel = count('beforeModel');
  const afterAgent = count('afterAgent');
  if (afterAgent - 1 > beforeModel) {
    throw new Error(`An exact turn cap needs at most ${beforeModel + 1} afterAgent hooks; the chain has ${afterAgent}`);
  }
  const stepsPerTurn = beforeModel + count('afterModel') + 2;
  return beforeAgent + maxTurns * stepsPerTurn + beforeModel;
}
