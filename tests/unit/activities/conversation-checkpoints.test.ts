import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { MemorySaver } from '@langchain/langgraph';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createAgent, createMiddleware } from 'langchain';
import { z } from 'zod';
import { ConversationCheckpoints } from '../../../src/activities/conversation-checkpoints';
import { resumedRecursionLimit, subagentCheckpointThread, takeOverCheckpoint, type ResumePoint } from '../../../src/activities/subagent-checkpoint';
import { parseScenario, ScriptedChatModel } from '../../../src/models';
import { afterToolResults, streamUntil } from '../../support/interrupted-stream';

const task = { threadId: 'thread-1', runId: 'run-1', taskId: '0.0' };
const LIMIT = 100;
const noop = tool(async () => 'ok', { name: 'noop', description: 'does nothing', schema: z.object({}) });
// Hooks that change no message but keep their own state, as the guards of the chain do.
const counted = createMiddleware({
  name: 'Counted',
  stateSchema: z.object({ hook_calls: z.number().default(0) }),
  beforeModel: (state) => ({ hook_calls: state.hook_calls + 1 }),
  afterModel: (state) => ({ hook_calls: state.hook_calls + 1 }),
});
const quiet = createMiddleware({ name: 'Quiet', beforeModel: () => undefined, afterModel: () => undefined });
const aiTurns = (messages: readonly BaseMessage[]) => messages.filter((m) => AIMessage.isInstance(m)).length;

function agentOn(saver: MemorySaver | ConversationCheckpoints) {
  const scenario = parseScenario({ subagents: [{ match: '*', turns: [{ tool_calls: [{ name: 'noop', args: {} }], repeat: 3 }, { content: 'all done' }] }] }, 'probe');
  const model = new ScriptedChatModel({ scenario, role: { kind: 'subagent', taskPrompt: 'go' }, modelName: 'probe' });
  return createAgent({ model, tools: [noop], middleware: [counted, quiet], checkpointer: saver });
}

/** Runs attempt 1 until `stopAfterTools` tool results are in (or to its end); returns the checkpoints the store received. */
async function firstAttempt(memory: MemorySaver, stopAfterTools: number | null): Promise<number> {
  const put = jest.spyOn(memory, 'put');
  await new MockActivityEnvironment().run(() =>
    streamUntil(
      (signal) =>
        agentOn(new ConversationCheckpoints(memory)).stream(
          { messages: [{ role: 'user', content: 'go' }] },
          { configurable: { thread_id: subagentCheckpointThread(task, 1) }, streamMode: 'values', recursionLimit: LIMIT, signal },
        ),
      afterToolResults(stopAfterTools),
    ),
  );
  const stored = put.mock.calls.length;
  put.mockRestore();
  return stored;
}

test('only steps that changed the conversation are stored: the input, the task message, each model response, each round of tool results', async () => {
  const everyStep = new MemorySaver();
  const put = jest.spyOn(everyStep, 'put');
  await agentOn(everyStep).invoke({ messages: [{ role: 'user', content: 'go' }] }, { configurable: { thread_id: 'all' }, recursionLimit: LIMIT });
  const stored = await firstAttempt(new MemorySaver(), null);
  // The input, the task message, 4 model responses and 3 rounds of tool results; every hook step in between is skipped.
  expect(stored).toBe(9);
  expect(put.mock.calls.length).toBeGreaterThan(stored * 2);
});

test('a resume from the last stored step runs the hooks after it again and finishes with no model call repeated', async () => {
  const memory = new MemorySaver();
  await firstAttempt(memory, 2);
  const resumed = (await new MockActivityEnvironment().run(async () => {
    const saver = new ConversationCheckpoints(memory);
    const taken = await takeOverCheckpoint(saver, task, 2);
    if (taken === null) throw new Error('nothing to take over');
    const final = await agentOn(saver).invoke(null, {
      configurable: { thread_id: subagentCheckpointThread(task, 2) },
      recursionLimit: resumedRecursionLimit(LIMIT, taken),
    });
    return { point: taken, messages: final.messages, hookCalls: (final as { hook_calls?: number }).hook_calls };
  })) as { point: ResumePoint; messages: BaseMessage[]; hookCalls: number | undefined };
  const { point, messages, hookCalls } = resumed;
  expect(aiTurns(point.messages)).toBe(2);
  expect(aiTurns(messages)).toBe(4);
  expect(messages.at(-1)?.content).toBe('all done');
  // The hook state came back with the conversation: two calls per model turn over the whole task.
  expect(hookCalls).toBe(8);
});
