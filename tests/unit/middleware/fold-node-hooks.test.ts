import { AIMessage, HumanMessage, RemoveMessage, SystemMessage, type BaseMessage } from '@langchain/core/messages';
import { REMOVE_ALL_MESSAGES } from '@langchain/langgraph';
import { createAgent, createMiddleware, type AgentMiddleware } from 'langchain';
import { z } from 'zod';
import { foldNodeHooks } from '../../../src/middleware/agent/fold-node-hooks';
import { RecordingChatModel } from './recording-chat-model';

/** Node names an agent runs for `input`, in order (one per superstep). */
async function nodesRun(middleware: AgentMiddleware[], script: string[], context: object = {}): Promise<{ nodes: string[]; messages: BaseMessage[]; state: Record<string, unknown> }> {
  const agent = createAgent({ model: RecordingChatModel.answering(script).model, tools: [], middleware });
  const nodes: string[] = [];
  let state: Record<string, unknown> = {};
  const stream = await agent.stream({ messages: [new HumanMessage('go')] }, { streamMode: ['updates', 'values'], context } as never);
  for await (const [mode, chunk] of stream as AsyncIterable<[string, Record<string, unknown>]>) {
    if (mode === 'updates') nodes.push(...Object.keys(chunk));
    else state = chunk;
  }
  return { nodes, messages: state['messages'] as BaseMessage[], state };
}

/** A middleware recording each hook call in `log` as `<name>.<hook>`. */
function logging(name: string, log: string[], extra: Partial<Parameters<typeof createMiddleware>[0]> = {}) {
  const hook = (kind: string) => () => {
    log.push(`${name}.${kind}`);
    return undefined;
  };
  return createMiddleware({ name, beforeAgent: hook('beforeAgent'), beforeModel: hook('beforeModel'), afterModel: hook('afterModel'), afterAgent: hook('afterAgent'), ...extra } as never) as AgentMiddleware;
}

test('runs every node hook in LangChain order, in one node per hook kind', async () => {
  const separate: string[] = [];
  const folded: string[] = [];
  const unfolded = await nodesRun([logging('A', separate), logging('B', separate)], ['done']);
  const run = await nodesRun(foldNodeHooks([logging('A', folded), logging('B', folded)], { name: 'Hooks' }), ['done']);
  expect(folded).toEqual(separate);
  expect(folded).toEqual(['A.beforeAgent', 'B.beforeAgent', 'A.beforeModel', 'B.beforeModel', 'B.afterModel', 'A.afterModel', 'B.afterAgent', 'A.afterAgent']);
  expect(unfolded.nodes).toHaveLength(9);
  expect(run.nodes).toEqual(['Hooks.before_agent', 'Hooks.before_model', 'model_request', 'Hooks.after_model', 'Hooks.after_agent']);
});

test('each hook sees what the earlier ones wrote; the updates land as separate nodes would land them', async () => {
  const counter = z.object({ count: z.number().default(0) });
  const first = createMiddleware({
    name: 'First',
    stateSchema: counter,
    beforeAgent: (state) => ({ count: state.count + 1, messages: [new SystemMessage({ id: 'note', content: 'first' })] }),
  }) as AgentMiddleware;
  const second = createMiddleware({
    name: 'Second',
    stateSchema: counter,
    beforeAgent: (state) => {
      const note = state.messages.find((m) => m.id === 'note');
      // Replaces the first hook's message by id and counts on from its update.
      return { count: state.count * 10, messages: [new SystemMessage({ id: 'note', content: `${String(note?.content)} then second` })] };
    },
  }) as AgentMiddleware;
  const separate = await nodesRun([first, second], ['done']);
  const folded = await nodesRun(foldNodeHooks([first, second], { name: 'Hooks' }), ['done']);
  expect(folded.state['count']).toBe(10);
  expect(folded.messages.map((m) => m.content)).toEqual(['go', 'first then second', 'done']);
  expect(folded.messages.map((m) => m.content)).toEqual(separate.messages.map((m) => m.content));
});

test('a remove-all in a later hook wipes what the earlier ones added, as in separate nodes', async () => {
  const adds = createMiddleware({ name: 'Adds', beforeModel: () => ({ messages: [new HumanMessage('extra')] }) }) as AgentMiddleware;
  const compacts = createMiddleware({
    name: 'Compacts',
    beforeModel: (state) => ({ messages: [new RemoveMessage({ id: REMOVE_ALL_MESSAGES }), new HumanMessage(`kept ${state.messages.length}`)] }),
  }) as AgentMiddleware;
  const separate = await nodesRun([adds, compacts], ['done']);
  const folded = await nodesRun(foldNodeHooks([adds, compacts], { name: 'Hooks' }), ['done']);
  expect(folded.messages.map((m) => m.content)).toEqual(['kept 2', 'done']);
  expect(folded.messages.map((m) => m.content)).toEqual(separate.messages.map((m) => m.content));
});

test("each hook gets the run context filtered to its own contextSchema, as LangChain gives it", async () => {
  const seen: Record<string, object> = {};
  const withSchema = createMiddleware({
    name: 'WithSchema',
    contextSchema: z.object({ run_id: z.string().optional() }),
    beforeAgent: (_state, runtime) => void (seen['WithSchema'] = { ...runtime.context }),
  }) as AgentMiddleware;
  const without = createMiddleware({ name: 'Without', beforeAgent: (_state, runtime) => void (seen['Without'] = { ...(runtime.context as object) }) }) as AgentMiddleware;
  await nodesRun(foldNodeHooks([withSchema, without], { name: 'Hooks' }), ['done'], { run_id: 'r1', thread_id: 't1' });
  expect(seen).toEqual({ WithSchema: { run_id: 'r1' }, Without: {} });
});

test('keeps names, wrap hooks and extra members; drops the run-level hooks it is told to', async () => {
  const log: string[] = [];
  const guard = Object.assign(
    logging('Guard', log, {
      wrapModelCall: (request, handler) => {
        log.push('Guard.wrapModelCall');
        return handler(request);
      },
    }),
    { consumeStopReason: () => 'loop_capped' },
  );
  const chain = foldNodeHooks([guard, logging('Other', log)], { name: 'Hooks', dropRunHooks: ['Guard'] });
  expect(chain.map((m) => m.name)).toEqual(['Hooks', 'Guard', 'Other']);
  expect((chain[1] as unknown as { consumeStopReason(): string }).consumeStopReason()).toBe('loop_capped');
  const { messages } = await nodesRun(chain, ['done']);
  expect(AIMessage.isInstance(messages.at(-1))).toBe(true);
  expect(log).toEqual(['Other.beforeAgent', 'Guard.beforeModel', 'Other.beforeModel', 'Guard.wrapModelCall', 'Other.afterModel', 'Guard.afterModel', 'Other.afterAgent']);
});

test('a run-level hook kind left with no hooks after the drop gets no node', async () => {
  const log: string[] = [];
  const chain = foldNodeHooks([logging('Guard', log), logging('Other', log, { beforeAgent: undefined, afterAgent: undefined })], { name: 'Hooks', dropRunHooks: ['Guard'] });
  expect(chain[0]?.beforeAgent).toBeUndefined();
  expect(chain[0]?.afterAgent).toBeUndefined();
  const run = await nodesRun(chain, ['done']);
  expect(run.nodes).toEqual(['Hooks.before_model', 'model_request', 'Hooks.after_model']);
  expect(log).toEqual(['Guard.beforeModel', 'Other.beforeModel', 'Other.afterModel', 'Guard.afterModel']);
});

test('a chain whose only node hooks are dropped run-level ones gets no hooks middleware, and runs no hook', async () => {
  const log: string[] = [];
  const guard = logging('Guard', log, { beforeModel: undefined, afterModel: undefined });
  const chain = foldNodeHooks([guard, createMiddleware({ name: 'WrapOnly', wrapModelCall: (request, handler) => handler(request) }) as AgentMiddleware], {
    name: 'Hooks',
    dropRunHooks: ['Guard'],
  });
  expect(chain.map((m) => m.name)).toEqual(['Guard', 'WrapOnly']);
  const run = await nodesRun(chain, ['done']);
  expect(run.nodes).toEqual(['model_request']);
  expect(log).toEqual([]);
});

test('a chain without node hooks is returned as it is; hooks with jump targets are refused', () => {
  const wrapOnly = createMiddleware({ name: 'WrapOnly', wrapModelCall: (request, handler) => handler(request) }) as AgentMiddleware;
  expect(foldNodeHooks([wrapOnly], { name: 'Hooks' })).toEqual([wrapOnly]);
  const jumper = createMiddleware({ name: 'Jumper', afterModel: { hook: () => ({ jumpTo: 'end' as const }), canJumpTo: ['end'] } }) as AgentMiddleware;
  expect(() => foldNodeHooks([jumper], { name: 'Hooks' })).toThrow('Jumper.afterModel declares jump targets');
});

test('chains folded from the same schemas share one merged schema; other schemas or another order get their own', () => {
  const state = { a: z.object({ a: z.string().default('a') }), b: z.object({ b: z.number().default(1) }) };
  const context = z.object({ run_id: z.string().optional() });
  const withSchemas = (name: string, stateSchema: z.ZodObject, contextSchema?: z.ZodObject) =>
    createMiddleware({ name, stateSchema, ...(contextSchema ? { contextSchema } : {}), beforeModel: () => undefined } as never) as AgentMiddleware;
  const fold = (chain: AgentMiddleware[]) => foldNodeHooks(chain, { name: 'Hooks' })[0]!;
  const first = fold([withSchemas('A', state.a, context), withSchemas('B', state.b)]);
  const second = fold([withSchemas('A', state.a, context), withSchemas('B', state.b)]);
  expect(second.stateSchema).toBe(first.stateSchema);
  expect(second.contextSchema).toBe(first.contextSchema);
  expect(Object.keys((first.stateSchema as z.ZodObject).shape)).toEqual(['a', 'b']);
  const reversed = fold([withSchemas('B', state.b), withSchemas('A', state.a, context)]);
  expect(reversed.stateSchema).not.toBe(first.stateSchema);
  expect(Object.keys((reversed.stateSchema as z.ZodObject).shape)).toEqual(['b', 'a']);
  const other = fold([withSchemas('A', z.object({ a: z.string().default('a') }), context), withSchemas('B', state.b)]);
  expect(other.stateSchema).not.toBe(first.stateSchema);
});
