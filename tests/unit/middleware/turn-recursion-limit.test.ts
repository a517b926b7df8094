import { tool } from '@langchain/core/tools';
import { MemorySaver } from '@langchain/langgraph';
import { createAgent, createMiddleware } from 'langchain';
import { z } from 'zod';
import { graphShape, recursionLimitForTurns, stepBeforePhase, turnsDoneAtStep, type GraphPhase } from '../../../src/middleware/turn-recursion-limit';
import { parseScenario, ScriptedChatModel } from '../../../src/models';
import { resumedRecursionLimit, subagentCheckpointThread, takeOverCheckpoint } from '../../../src/activities/subagent-checkpoint';

/** A chain with the given numbers of each node hook (no-ops). */
function chain(shape: { beforeAgent: number; beforeModel: number; afterModel: number; afterAgent: number }) {
  const size = Math.max(shape.beforeAgent, shape.beforeModel, shape.afterModel, shape.afterAgent);
  return Array.from({ length: size }, (_, i) =>
    createMiddleware({
      name: `hooks${i}`,
      ...(i < shape.beforeAgent ? { beforeAgent: () => undefined } : {}),
      ...(i < shape.beforeModel ? { beforeModel: () => undefined } : {}),
      ...(i < shape.afterModel ? { afterModel: () => undefined } : {}),
      ...(i < shape.afterAgent ? { afterAgent: () => undefined } : {}),
    }),
  );
}

const noop = tool(async () => 'ok', { name: 'noop', description: 'does nothing', schema: z.object({}) });

/** Model calls an agent makes under the limit, and whether it ended by the recursion limit. */
async function run(turns: object[], middleware: ReturnType<typeof chain>, recursionLimit: number): Promise<{ calls: number; capped: boolean }> {
  const scenario = parseScenario({ subagents: [{ match: '*', turns }] }, 'probe');
  const model = new ScriptedChatModel({ scenario, role: { kind: 'subagent', taskPrompt: 'go' }, modelName: 'probe' });
  const agent = createAgent({ model, tools: [noop], middleware });
  let calls = 0;
  try {
    const stream = await agent.stream({ messages: [{ role: 'user', content: 'go' }] }, { streamMode: 'values', recursionLimit });
    for await (const chunk of stream) calls = chunk.messages.filter((m) => m.type === 'ai').length;
    return { calls, capped: false };
  } catch (err) {
    if (err instanceof Error && err.name === 'GraphRecursionError') return { calls, capped: true };
    throw err;
  }
}

const shapes = [
  { beforeAgent: 0, beforeModel: 0, afterModel: 0, afterAgent: 0 },
  // The subagent chain's: its node hooks folded, the guards' checks in their wrap hooks.
  { beforeAgent: 0, beforeModel: 1, afterModel: 0, afterAgent: 0 },
  // Earlier releases' folded subagent chain (one node per hook kind, no afterAgent).
  { beforeAgent: 1, beforeModel: 1, afterModel: 1, afterAgent: 0 },
  { beforeAgent: 1, beforeModel: 2, afterModel: 2, afterAgent: 2 },
  { beforeAgent: 3, beforeModel: 1, afterModel: 3, afterAgent: 1 },
];

test.each(shapes)('max_turns 5 allows exactly 5 model calls with hooks %o', async (shape) => {
  const middleware = chain(shape);
  const limit = recursionLimitForTurns(5, middleware);
  // A model that never stops calling tools is cut after exactly 5 calls.
  expect(await run([{ tool_calls: [{ name: 'noop', args: {} }], repeat: 'forever' }], middleware, limit)).toEqual({ calls: 5, capped: true });
  // One that answers on call 5 finishes normally.
  expect(await run([{ tool_calls: [{ name: 'noop', args: {} }], repeat: 4 }, { content: 'done' }], middleware, limit)).toEqual({ calls: 5, capped: false });
});

test('a chain whose afterAgent hooks would cut a final answer short is refused', () => {
  expect(() => recursionLimitForTurns(5, chain({ beforeAgent: 0, beforeModel: 0, afterModel: 0, afterAgent: 2 }))).toThrow('at most 1 afterAgent hooks');
});

/**
 * Runs until `stopAfter` model calls are checkpointed (then aborts, as a lost worker would), and
 * resumes a fresh agent as the next attempt does (its own thread, taken over) under
 * {@link resumedRecursionLimit}: the turn cap holds across the two.
 */
async function runAcrossResume(middleware: ReturnType<typeof chain>, maxTurns: number, stopAfter: number): Promise<{ calls: number; capped: boolean }> {
  const saver = new MemorySaver();
  const task = { threadId: 'thread', runId: 'run', taskId: '0.0' };
  const attempt = (n: number) => ({ configurable: { thread_id: subagentCheckpointThread(task, n) } });
  const scenario = parseScenario({ subagents: [{ match: '*', turns: [{ tool_calls: [{ name: 'noop', args: {} }], repeat: 'forever' }] }] }, 'probe');
  const agent = () => createAgent({ model: new ScriptedChatModel({ scenario, role: { kind: 'subagent', taskPrompt: 'go' }, modelName: 'probe' }), tools: [noop], middleware, checkpointer: saver });
  const full = recursionLimitForTurns(maxTurns, middleware);
  const first = new AbortController();
  const stream = await agent().stream({ messages: [{ role: 'user', content: 'go' }] }, { ...attempt(1), streamMode: 'values', recursionLimit: full, signal: first.signal });
  try {
    for await (const chunk of stream) {
      if (chunk.messages.filter((m) => m.type === 'tool').length === stopAfter) first.abort();
    }
  } catch (err) {
    if (!first.signal.aborted) throw err;
  }
  const point = await takeOverCheckpoint(saver, task, 2);
  if (point === null) throw new Error('nothing was checkpointed');
  let calls = 0;
  try {
    const resumed = await agent().stream(null, { ...attempt(2), streamMode: 'values', recursionLimit: resumedRecursionLimit(full, point) });
    for await (const chunk of resumed) calls = chunk.messages.filter((m) => m.type === 'ai').length;
    return { calls, capped: false };
  } catch (err) {
    if (err instanceof Error && err.name === 'GraphRecursionError') return { calls, capped: true };
    throw err;
  }
}

test.each(shapes)('a resumed execution keeps the turn cap of the whole task with hooks %o', async (shape) => {
  const middleware = chain(shape);
  for (const stopAfter of [1, 3]) {
    expect(await runAcrossResume(middleware, 5, stopAfter)).toEqual({ calls: 5, capped: true });
  }
});

/** The phase of a node: `model_request`, `tools`, or the hook kind in its name (`<middleware>.<hook>`). */
const phaseOf = (node: string) => (node === 'model_request' || node === 'tools' ? node : node.slice(node.lastIndexOf('.') + 1)) as GraphPhase;

const HOOK_OF = { before_agent: 'beforeAgent', before_model: 'beforeModel', after_model: 'afterModel', after_agent: 'afterAgent' } as const;

/** Whether `node` runs first in its phase (beforeX hooks in chain order, afterX in reverse); a graph enters a phase there. */
function entersPhase(node: string, middleware: ReturnType<typeof chain>): boolean {
  const hook = (HOOK_OF as Record<string, keyof typeof shapes[number]>)[phaseOf(node)];
  if (hook === undefined) return true;
  const withHook = middleware.filter((m) => m[hook] !== undefined);
  const first = hook === 'afterModel' || hook === 'afterAgent' ? withHook.at(-1) : withHook[0];
  return node === `${first?.name}.${phaseOf(node)}`;
}

test.each(shapes)('the step before each phase, from the model calls made, is where the graph checkpointed it, with hooks %o', async (shape) => {
  const middleware = chain(shape);
  const saver = new MemorySaver();
  const scenario = parseScenario({ subagents: [{ match: '*', turns: [{ tool_calls: [{ name: 'noop', args: {} }], repeat: 2 }, { content: 'done' }] }] }, 'probe');
  const agent = createAgent({ model: new ScriptedChatModel({ scenario, role: { kind: 'subagent', taskPrompt: 'go' }, modelName: 'probe' }), tools: [noop], middleware, checkpointer: saver });
  await agent.invoke({ messages: [{ role: 'user', content: 'go' }] }, { configurable: { thread_id: 't' } });
  const entered: string[] = [];
  for await (const saved of saver.list({ configurable: { thread_id: 't' } })) {
    const step = saved.metadata?.step ?? -1;
    const values = saved.checkpoint.channel_values;
    const messages = (values['messages'] ?? []) as { type: string }[];
    const turns = turnsDoneAtStep(step, graphShape(middleware));
    if (step >= 0) expect(turns).toBe(messages.filter((m) => m.type === 'ai').length);
    // Next: the nodes its edges triggered, and `tools` when tool calls were sent to it.
    const sent = Array.isArray(values['__pregel_tasks']) && values['__pregel_tasks'].length > 0 ? ['tools'] : [];
    const next = [...Object.keys(values).filter((c) => c.startsWith('branch:to:')).map((c) => c.slice('branch:to:'.length)), ...sent];
    for (const node of next.filter((n) => entersPhase(n, middleware))) {
      expect(stepBeforePhase(phaseOf(node), turns, graphShape(middleware))).toBe(step);
      entered.push(phaseOf(node));
    }
  }
  const hookPhases = Object.entries(HOOK_OF).filter(([, hook]) => shape[hook] > 0).map(([phase]) => phase);
  expect(new Set(entered)).toEqual(new Set(['model_request', 'tools', ...hookPhases]));
});

test('without afterModel hooks, a checkpoint about to run them sits where the tools would run', () => {
  // A checkpoint of a graph with afterModel hooks, taken over by one without, goes on at the tools.
  const shape = graphShape(chain({ beforeAgent: 0, beforeModel: 1, afterModel: 0, afterAgent: 0 }));
  for (const turns of [1, 2, 5]) {
    expect(stepBeforePhase('after_model', turns, shape)).toBe(stepBeforePhase('tools', turns, shape));
    expect(stepBeforePhase('tools', turns, shape)).toBe(2 + (turns - 1) * 3);
    expect(turnsDoneAtStep(stepBeforePhase('tools', turns, shape), shape)).toBe(turns);
  }
});
