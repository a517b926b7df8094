import type { BaseMessage } from '@langchain/core/messages';
import { messagesStateReducer } from '@langchain/langgraph';
import { createMiddleware, type AgentMiddleware } from 'langchain';
import { z } from 'zod';

/** The hooks LangChain turns into graph nodes (one superstep each per run or per turn). */
export const NODE_HOOKS = ['beforeAgent', 'beforeModel', 'afterModel', 'afterAgent'] as const;
export type NodeHook = (typeof NODE_HOOKS)[number];

type HookFn = (state: Record<string, unknown>, runtime: HookRuntime) => unknown;
type HookRuntime = Readonly<{ context: object } & Record<string, unknown>>;
type Update = Record<string, unknown> & { messages?: BaseMessage[] };

/** Options of {@link foldNodeHooks}. */
export interface FoldNodeHooksOptions {
  /** Name of the middleware that runs the folded hooks (its nodes are `<name>.before_model` etc.). */
  readonly name: string;
  /**
   * Middleware whose run-level hooks (`beforeAgent`, `afterAgent`) are left out: ones that only
   * set up or forget in-memory state across runs of a thread (stale warnings, usage already
   * counted), which a chain that serves one execution at a time and is reset after each never needs.
   * @default []
   */
  readonly dropRunHooks?: readonly string[];
}

/** The hooks that run once per run rather than once per turn. */
const RUN_HOOKS: ReadonlySet<NodeHook> = new Set(['beforeAgent', 'afterAgent']);

interface MergedSchemaNode {
  readonly next: WeakMap<z.ZodObject, MergedSchemaNode>;
  merged?: z.ZodObject;
}

const mergedSchemaRoot: MergedSchemaNode = { next: new WeakMap() };

/**
 * `parts` merged into one object schema, the same instance for the same parts in the same order.
 * Chains are built per execution from schemas that are module constants; a new merged schema
 * each time would make LangChain derive, and zod compile, its parsers again for every run.
 */
function mergedSchema(parts: readonly z.ZodObject[]): z.ZodObject {
  let node = mergedSchemaRoot;
  for (const part of parts) {
    let child = node.next.get(part);
    if (child === undefined) {
      child = { next: new WeakMap() };
      node.next.set(part, child);
    }
    node = child;
  }
  node.merged ??= parts.reduce<z.ZodObject>((merged, schema) => merged.extend(schema.shape), z.object({}));
  return node.merged;
}

function zodObjectOf(middleware: AgentMiddleware, key: 'stateSchema' | 'contextSchema'): z.ZodObject | null {
  const schema: unknown = middleware[key];
  if (schema === undefined) return null;
  if (schema instanceof z.ZodObject) return schema;
  throw new Error(`${middleware.name}.${key} is not a zod object; its hooks cannot be folded`);
}

/** The hook's function; a hook with jump targets cannot share a node with others. */
function hookFunction(middleware: AgentMiddleware, hook: NodeHook): HookFn | null {
  const value: unknown = middleware[hook];
  if (value === undefined) return null;
  if (typeof value !== 'function') throw new Error(`${middleware.name}.${hook} declares jump targets; it cannot be folded`);
  return value as HookFn;
}

/** `context` filtered to `schema`'s keys and parsed, as LangChain hands it to that middleware's hooks. */
function contextFor(schema: z.ZodObject | null, context: object): object {
  if (schema === null) return {};
  const given = context as Record<string, unknown>;
  return schema.parse(Object.fromEntries(Object.keys(schema.shape).filter((key) => key in given).map((key) => [key, given[key]])));
}

/**
 * Runs `parts` in one node as consecutive nodes would run them: each sees the
 * state the earlier ones left (messages through LangGraph's reducer, other keys replaced) and the
 * run context filtered to its own `contextSchema`. Returns the parts' updates as one.
 */
async function runInOne(parts: readonly { middleware: AgentMiddleware; hook: HookFn }[], state: Record<string, unknown>, runtime: HookRuntime): Promise<Update | undefined> {
  let current = state;
  let combined: Update | undefined;
  for (const { middleware, hook } of parts) {
    const own = Object.freeze({ ...runtime, context: Object.freeze(contextFor(zodObjectOf(middleware, 'contextSchema'), runtime.context)) });
    const result = (await hook(current, own)) as Update | undefined | void;
    if (result === undefined || result === null) continue;
    if ('jumpTo' in result && result.jumpTo !== undefined) throw new Error(`Invalid jump target: ${String(result.jumpTo)}, ${middleware.name} cannot jump from a folded hook.`);
    const { messages, ...rest } = result;
    current = { ...current, ...rest, ...(messages === undefined ? {} : { messages: messagesStateReducer(current['messages'] as BaseMessage[], messages) }) };
    // Concatenated message updates reduce as the separate updates did (ids replace, a remove-all wipes what precedes it).
    combined = { ...combined, ...rest, ...(messages === undefined ? {} : { messages: [...(combined?.messages ?? []), ...messages] }) };
  }
  return combined;
}

/**
 * `chain` with the node hooks of all its middleware folded into ONE middleware named
 * `options.name`, placed first: at most one `beforeAgent`, `beforeModel`, `afterModel` and
 * `afterAgent` node instead of one per hook. Every graph node is a LangGraph superstep with a
 * per-step cost (config merging, callbacks, channel writes, a checkpoint write), and the wrap
 * hooks add none, so this cuts a run's steps without changing what the hooks decide.
 *
 * The folded hooks run in LangChain's order (`beforeX` in chain order, `afterX` in reverse), each
 * seeing what the earlier ones wrote. The middleware keep their names, wrap hooks, tools, state
 * schemas and anything else they carry (a guard's stop-reason channel). Hooks with jump targets
 * cannot be folded. The run-level hooks of the middleware named in `dropRunHooks` are not run at all.
 * @throws Error when a folded middleware's schema is not a zod object or a hook declares `canJumpTo`.
 */
export function foldNodeHooks(chain: readonly AgentMiddleware[], options: FoldNodeHooksOptions): AgentMiddleware[] {
  const dropped = new Set(options.dropRunHooks ?? []);
  const partsOf = (hook: NodeHook) => {
    const parts = chain.flatMap((middleware) => {
      const fn = RUN_HOOKS.has(hook) && dropped.has(middleware.name) ? null : hookFunction(middleware, hook);
      return fn === null ? [] : [{ middleware, hook: fn }];
    });
    return hook === 'afterModel' || hook === 'afterAgent' ? parts.reverse() : parts;
  };
  const folded = Object.fromEntries(NODE_HOOKS.map((hook) => [hook, partsOf(hook)] as const));
  const withHooks = chain.filter((m) => NODE_HOOKS.some((hook) => folded[hook]?.some((part) => part.middleware === m)));
  const withoutNodeHooks = chain.map((m) => ({ ...m, beforeAgent: undefined, beforeModel: undefined, afterModel: undefined, afterAgent: undefined }) as AgentMiddleware);
  // No hook left to run (none, or only dropped run-level ones): no hooks middleware, and no step.
  if (withHooks.length === 0) return withoutNodeHooks;
  const schemas = (key: 'stateSchema' | 'contextSchema') => mergedSchema(withHooks.flatMap((m) => zodObjectOf(m, key) ?? []));
  const nodeOf = (hook: NodeHook) => {
    const parts = folded[hook] ?? [];
    return parts.length === 0 ? undefined : (state: Record<string, unknown>, runtime: HookRuntime) => runInOne(parts, state, runtime);
  };
  const hooks = createMiddleware({
    name: options.name,
    stateSchema: schemas('stateSchema'),
    contextSchema: schemas('contextSchema'),
    beforeAgent: nodeOf('beforeAgent'),
    beforeModel: nodeOf('beforeModel'),
    afterModel: nodeOf('afterModel'),
    afterAgent: nodeOf('afterAgent'),
  } as Parameters<typeof createMiddleware>[0]) as AgentMiddleware;
  return [hooks, ...withoutNodeHooks];
}
