/** The node hooks of a langchain agent middleware that become graph steps. */
export interface MiddlewareHooks {
  readonly beforeAgent?: unknown;
  readonly beforeModel?: unknown;
  readonly afterModel?: unknown;
  readonly afterAgent?: unknown;
}

/** How many node hooks of each kind an agent's graph has (each is one graph step where it runs). */
export interface GraphShape {
  readonly beforeAgent: number;
  readonly beforeModel: number;
  readonly afterModel: number;
  readonly afterAgent: number;
}

/** Where an agent's graph is in its loop: the kind of node it runs next. */
export type GraphPhase = 'before_agent' | 'before_model' | 'model_request' | 'after_model' | 'tools' | 'after_agent';

/** The graph shape of an agent with `middleware`. */
export function graphShape(middleware: readonly MiddlewareHooks[]): GraphShape {
  const count = (hook: keyof MiddlewareHooks) => middleware.filter((m) => m[hook] !== undefined).length;
  return { beforeAgent: count('beforeAgent'), beforeModel: count('beforeModel'), afterModel: count('afterModel'), afterAgent: count('afterAgent') };
}

/** Graph steps per turn: the beforeModel hooks, the model, the afterModel hooks and the tools node. */
function stepsPerTurn(shape: GraphShape): number {
  return shape.beforeModel + shape.afterModel + 2;
}

/** LangGraph's step number of model call `turn` (1-based): step 0 takes the input, the first node runs at step 1. */
function modelCallStep(turn: number, shape: GraphShape): number {
  return shape.beforeAgent + shape.beforeModel + 1 + (turn - 1) * stepsPerTurn(shape);
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
  const shape = graphShape(middleware);
  if (shape.afterAgent - 1 > shape.beforeModel) {
    throw new Error(`An exact turn cap needs at most ${shape.beforeModel + 1} afterAgent hooks; the chain has ${shape.afterAgent}`);
  }
  return shape.beforeAgent + maxTurns * stepsPerTurn(shape) + shape.beforeModel;
}

/** Model calls a graph of `shape` has made once the step `step` is done. */
export function turnsDoneAtStep(step: number, shape: GraphShape): number {
  const first = modelCallStep(1, shape);
  return step < first ? 0 : Math.floor((step - first) / stepsPerTurn(shape)) + 1;
}

/**
 * The step after which a graph of `shape` runs the first node of `phase`, with `turnsDone` model
 * calls made (for `after_model`, `tools` and `after_agent`, counting the call they follow). A
 * checkpoint of that step is where such a graph would resume.
 */
export function stepBeforePhase(phase: GraphPhase, turnsDone: number, shape: GraphShape): number {
  switch (phase) {
    case 'before_agent':
      return 0;
    case 'before_model':
      return modelCallStep(turnsDone, shape) + shape.afterModel + 1;
    case 'model_request':
      return modelCallStep(turnsDone + 1, shape) - 1;
    case 'after_model':
      return modelCallStep(turnsDone, shape);
    case 'tools':
    case 'after_agent':
      return modelCallStep(turnsDone, shape) + shape.afterModel;
    default: {
      const never: never = phase;
      throw new Error(`unknown graph phase ${String(never)}`);
    }
  }
}
