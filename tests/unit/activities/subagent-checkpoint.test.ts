import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { MemorySaver } from '@langchain/langgraph';
import { createAgent } from 'langchain';
import { z } from 'zod';
import { dropCheckpoints, resumedRecursionLimit, subagentCheckpointThread, takeOverCheckpoint } from '../../../src/activities/subagent-checkpoint';
import { finishedOutcome } from '../../../src/activities/subagent-outcome';
import { parseScenario, ScriptedChatModel } from '../../../src/models';
import { afterToolResults, streamUntil } from '../../support/interrupted-stream';

const task = { threadId: 'thread-1', runId: 'run-1', taskId: '0.0' };
const LIMIT = 50;
const noop = tool(async () => 'ok', { name: 'noop', description: 'does nothing', schema: z.object({}) });
const aiTurns = (messages: readonly BaseMessage[]) => messages.filter((m) => AIMessage.isInstance(m)).length;

function agentOn(saver: MemorySaver, toolRounds: number) {
  const scenario = parseScenario({ subagents: [{ match: '*', turns: [{ tool_calls: [{ name: 'noop', args: {} }], repeat: toolRounds }, { content: 'all done' }] }] }, 'probe');
  return createAgent({ model: new ScriptedChatModel({ scenario, role: { kind: 'subagent', taskPrompt: 'go' }, modelName: 'probe' }), tools: [noop], checkpointer: saver });
}

/** Attempt 1 on its own thread, stopped (as a lost worker) once `stopAfterTools` tool results are checkpointed, or run to its end. */
async function firstAttempt(saver: MemorySaver, toolRounds: number, stopAfterTools: number | null): Promise<void> {
  await streamUntil(
    (signal) =>
      agentOn(saver, toolRounds).stream(
        { messages: [{ role: 'user', content: 'go' }] },
        { configurable: { thread_id: subagentCheckpointThread(task, 1) }, streamMode: 'values', recursionLimit: LIMIT, signal },
      ),
    afterToolResults(stopAfterTools),
  );
}

/** Attempt `attempt` resumed as `runSubagent` does it: its own thread, seeded from the earlier attempt. */
async function resumedAttempt(saver: MemorySaver, toolRounds: number, attempt: number, beforeStream: () => Promise<void>) {
  const point = await takeOverCheckpoint(saver, task, attempt);
  if (point === null) throw new Error('nothing to take over');
  await beforeStream();
  let messages = point.messages;
  let newCalls = 0;
  const stream = await agentOn(saver, toolRounds).stream(null, {
    configurable: { thread_id: subagentCheckpointThread(task, attempt) },
    streamMode: 'values',
    recursionLimit: resumedRecursionLimit(LIMIT, point),
  });
  for await (const chunk of stream) {
    newCalls = aiTurns(chunk.messages) - aiTurns(point.messages);
    messages = chunk.messages;
  }
  return { point, messages, newCalls };
}

test('a resumed attempt finishes on its own thread while the lapsed earlier attempt deletes its checkpoints', async () => {
  const saver = new MemorySaver();
  await firstAttempt(saver, 5, 2);
  // The earlier attempt, still running after its lease lapsed, ends and deletes its thread just as the successor starts streaming.
  const { point, messages, newCalls } = await resumedAttempt(saver, 5, 2, () => dropCheckpoints(saver, task, 1));
  expect(point.steps).toBe(4);
  expect(newCalls).toBe(4);
  expect(aiTurns(messages)).toBe(6);
  expect(finishedOutcome(messages, null)).toMatchObject({ status: 'completed', resultText: 'all done' });
});

test('an earlier attempt that checkpointed its final answer is taken over without another model call', async () => {
  const saver = new MemorySaver();
  await firstAttempt(saver, 1, null);
  const { messages, newCalls } = await resumedAttempt(saver, 1, 2, async () => undefined);
  expect(newCalls).toBe(0);
  expect(finishedOutcome(messages, null)).toMatchObject({ status: 'completed', resultText: 'all done' });
});

test('an attempt that never checkpointed leaves the one before it to take over', async () => {
  const saver = new MemorySaver();
  await firstAttempt(saver, 5, 3);
  const { point, newCalls } = await resumedAttempt(saver, 5, 3, async () => undefined);
  expect(point.steps).toBe(6);
  expect(newCalls).toBe(3);
});
