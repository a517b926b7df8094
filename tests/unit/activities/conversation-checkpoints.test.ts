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
  const storing = saver instanceof ConversationCheckpoints ? [saver.storeBeforeCalls()] : [];
  return createAgent({ model, tools: [noop], middleware: [counted, quiet, ...storing], checkpointer: saver });
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

test('only conversations a call follows are stored: each model response and each round of tool results before the next call, never the input or the answer', async () => {
  const everyStep = new MemorySaver();
  const put = jest.spyOn(everyStep, 'put');
  await agentOn(everyStep).invoke({ messages: [{ role: 'user', content: 'go' }] }, { configurable: { thread_id: 'all' }, recursionLimit: LIMIT });
  const memory = new MemorySaver();
  const stored = await firstAttempt(memory, null);
  // 3 responses with tool calls and 3 rounds of tool results; the input, every hook step and the final answer are not.
  expect(stored).toBe(6);
  expect(put.mock.calls.length).toBeGreaterThan(stored * 3);
  const latest = await memory.getTuple({ configurable: { thread_id: subagentCheckpointThread(task, 1), checkpoint_ns: '' } });
  expect(aiTurns(latest?.checkpoint.channel_values['messages'] as BaseMessage[])).toBe(3);
});

test('a one-turn task stores nothing', async () => {
  const memory = new MemorySaver();
  const put = jest.spyOn(memory, 'put');
  const saver = new ConversationCheckpoints(memory);
  const scenario = parseScenario({ subagents: [{ match: '*', turns: [{ content: 'done at once' }] }] }, 'probe');
  const model = new ScriptedChatModel({ scenario, role: { kind: 'subagent', taskPrompt: 'go' }, modelName: 'probe' });
  const agent = createAgent({ model, tools: [noop], middleware: [counted, quiet, saver.storeBeforeCalls()], checkpointer: saver });
  const final = (await new MockActivityEnvironment().run(() =>
    agent.invoke({ messages: [{ role: 'user', content: 'go' }] }, { configurable: { thread_id: 'one-turn' }, recursionLimit: LIMIT }),
  )) as { messages: BaseMessage[] };
  expect(final.messages.at(-1)?.content).toBe('done at once');
  expect(put).not.toHaveBeenCalled();
  expect(saver.storedAny).toBe(false);
});

test('a resume from the last stored step runs the hooks after it again and finishes with no model call repeated', async () => {
  const memory = new MemorySaver();
  await firstAttempt(memory, 2);
  const resumed = (await new MockActivityEnvironment().run(async () => {
    const saver = new ConversationCheckpoints(memory);
    const taken = await takeOverCheckpoint(memory, task, 2);
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

test('a thread it emptied is read as empty without asking the store, until it stores a checkpoint there', async () => {
  const memory = new MemorySaver();
  await firstAttempt(memory, 2);
  const thread = { configurable: { thread_id: subagentCheckpointThread(task, 1), checkpoint_ns: '' } };
  const other = { configurable: { thread_id: 'other', checkpoint_ns: '' } };
  const reads = jest.spyOn(memory, 'getTuple');
  await new MockActivityEnvironment().run(async () => {
    const saver = new ConversationCheckpoints(memory);
    await expect(saver.getTuple(thread)).resolves.toBeDefined();
    expect(reads).toHaveBeenCalledTimes(1);
    await saver.deleteThread(subagentCheckpointThread(task, 1));
    await expect(saver.getTuple(thread)).resolves.toBeUndefined();
    await expect(saver.getTuple(other)).resolves.toBeUndefined();
    // Only the other thread was read.
    expect(reads).toHaveBeenCalledTimes(2);
    // The run that follows stores its first checkpoint (before its second model call): reads go to the store again.
    await agentOn(saver).invoke({ messages: [{ role: 'user', content: 'go' }] }, { configurable: { thread_id: subagentCheckpointThread(task, 1) }, recursionLimit: LIMIT });
    const latest = await saver.getTuple(thread);
    expect(aiTurns(latest?.checkpoint.channel_values['messages'] as BaseMessage[])).toBe(3);
  });
});
