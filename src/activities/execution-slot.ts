import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { StructuredToolInterface } from '@langchain/core/tools';
import { createMiddleware, type AgentMiddleware } from 'langchain';
import type { ConversationCheckpoints } from './conversation-checkpoints';

/** Name the middleware of {@link executionSlotMiddleware} registers under. */
export const EXECUTION_SLOT_MIDDLEWARE_NAME = 'ExecutionSlotMiddleware';

/**
 * What one subagent execution lends the pooled agent that runs it: everything that belongs to that
 * execution alone. The agent itself (its graph, middleware chain, system prompt) is built once for
 * every execution of the same shape; these are looked up at every call.
 */
export interface ExecutionBinding {
  /** The execution's chat model (its usage callback; the scripted model's task). */
  readonly model: BaseChatModel;
  /** The execution's tools by name (bound to its thread's workspace), every tool the agent was built with. */
  readonly tools: ReadonlyMap<string, StructuredToolInterface>;
  /** The execution's summary model, with summarization on. */
  readonly summaryModel: BaseChatModel | undefined;
  /**
   * The execution's own wrap-only middleware (progress, checkpoint storing, spans), run innermost in
   * this order around every model and tool call, as if they ended the chain.
   */
  readonly wrappers: readonly AgentMiddleware[];
  /** The execution's checkpointer, with resume on. */
  readonly checkpointer: ConversationCheckpoints | null;
}

/** The binding of the execution a pooled agent runs now. One execution at a time. */
export class ExecutionSlot {
  #binding: ExecutionBinding | null = null;

  /** @throws Error when another execution is bound */
  bind(binding: ExecutionBinding): void {
    if (this.#binding !== null) throw new Error('a pooled subagent agent was bound to a second execution');
    this.#binding = binding;
  }

  unbind(): void {
    this.#binding = null;
  }

  /** @throws Error when no execution is bound: nothing may run on the pooled agent then */
  get current(): ExecutionBinding {
    if (this.#binding === null) throw new Error('a pooled subagent agent ran with no execution bound');
    return this.#binding;
  }
}

type Wrap<R, T> = (request: R, handler: (request: R) => Promise<T>) => Promise<T>;

/** `wrappers` around `base`, the first outermost, as LangChain composes a chain's wrap hooks. */
function around<R, T>(wrappers: readonly (Wrap<R, T> | undefined)[], base: (request: R) => Promise<T>): (request: R) => Promise<T> {
  return wrappers.reduceRight<(request: R) => Promise<T>>((inner, wrap) => (wrap === undefined ? inner : (request) => wrap(request, inner)), base);
}

/**
 * The innermost middleware of a pooled agent: it runs the bound execution's wrappers and hands the
 * call to the execution's model or tool. The agent was built with some execution's model and tools;
 * those only give it their names and schemas, never run, so a tool never acts in another thread's
 * workspace. The binding is read once per call: a call that started for one execution stays its.
 */
export function executionSlotMiddleware(slot: ExecutionSlot): AgentMiddleware {
  return createMiddleware({
    name: EXECUTION_SLOT_MIDDLEWARE_NAME,
    wrapModelCall: (request, handler) => {
      const { model, wrappers } = slot.current;
      type Request = typeof request;
      const hooks = wrappers.map((m) => m.wrapModelCall as Wrap<Request, Awaited<ReturnType<typeof handler>>> | undefined);
      return around(hooks, async (r: Request) => handler({ ...r, model }))(request);
    },
    wrapToolCall: (request, handler) => {
      const { tools, wrappers } = slot.current;
      type Request = typeof request;
      const tool = tools.get(request.toolCall.name);
      const hooks = wrappers.map((m) => m.wrapToolCall as Wrap<Request, Awaited<ReturnType<typeof handler>>> | undefined);
      // A tool the agent did not get from the execution (a middleware's own, such as `tool_search`) runs as registered.
      return around(hooks, async (r: Request) => handler(tool === undefined ? r : { ...r, tool }))(request);
    },
  }) as AgentMiddleware;
}
