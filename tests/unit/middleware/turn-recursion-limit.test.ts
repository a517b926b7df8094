import { tool } from '@langchain/core/tools';
import { MemorySaver } from '@langchain/langgraph';
import { createAgent, createMiddleware } from 'langchain';
import { z } from 'zod';
import { recursionLimitForTurns } from '../../../src/middleware/turn-recursion-limit';
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
