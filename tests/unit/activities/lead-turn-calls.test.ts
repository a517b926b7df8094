import { AIMessage, mapChatMessagesToStoredMessages } from '@langchain/core/messages';
import { LeadTurnCalls } from '../../../src/activities/lead-turn-calls';
import { messageKeys } from '../../../src/store';
import { useMemoryStores } from '../../support/memory-stores';

const task = (id: string, prompt: unknown, extra: Record<string, unknown> = {}) => ({
  id,
  name: 'task',
  args: { subagent_type: 'general-purpose', description: `call ${id}`, prompt, ...extra },
});

const stores = useMemoryStores();

async function storeTurn(turn: number, toolCalls: ReturnType<typeof task>[]): Promise<void> {
  const [message] = mapChatMessagesToStoredMessages([new AIMessage({ content: '', tool_calls: toolCalls })]);
  if (message === undefined) throw new Error('not serialized');
  await stores().messages.putMessageIfAbsent({ threadId: 'thread-1', runId: 'run-1', key: messageKeys.ai('run-1', turn), message });
}

test('every call of a response reads and parses the stored response once', async () => {
  await storeTurn(0, [task('call_a', 'first'), task('call_b', 'second', { acceptance_criteria: ['cites a source'] }), task('call_a', 'repeated id')]);
  const getMessage = jest.spyOn(stores().messages, 'getMessage');
  const calls = new LeadTurnCalls(stores().messages);
  const found = await Promise.all(['call_a', 'call_b', 'call_x'].map((id) => calls.callOf('thread-1', 'run-1', 0, id)));
  expect(found.map((call) => call && { id: call.id, name: call.name, args: call.args })).toEqual([
    // The first call of a repeated id is the one a call of that id runs.
    { id: 'call_a', name: 'task', args: task('call_a', 'first').args },
    { id: 'call_b', name: 'task', args: task('call_b', 'second', { acceptance_criteria: ['cites a source'] }).args },
    // An id the response does not hold.
    null,
  ]);
  expect((await calls.callOf('thread-1', 'run-1', 0, 'call_b'))?.args).toEqual(task('call_b', 'second', { acceptance_criteria: ['cites a source'] }).args);
  expect(getMessage).toHaveBeenCalledTimes(1);
  // Another thread's response of the same run id and turn is another message.
  expect(await calls.callOf('thread-2', 'run-1', 0, 'call_a')).toBeNull();
  expect(getMessage).toHaveBeenCalledTimes(2);
});

test('a read that failed or found no response is not kept: the next one reads the store again', async () => {
  const getMessage = jest.spyOn(stores().messages, 'getMessage');
  const calls = new LeadTurnCalls(stores().messages);
  const promptOf = async (turn: number) => (await calls.callOf('thread-1', 'run-1', turn, 'call_a'))?.args['prompt'] ?? null;
  expect(await promptOf(1)).toBeNull();
  await storeTurn(1, [task('call_a', 'late')]);
  expect(await promptOf(1)).toBe('late');

  getMessage.mockRejectedValueOnce(new Error('connect ECONNREFUSED 127.0.0.1:5432'));
  await expect(promptOf(2)).rejects.toThrow('ECONNREFUSED');
  await storeTurn(2, [task('call_a', 'after the outage')]);
  expect(await promptOf(2)).toBe('after the outage');
  expect(getMessage).toHaveBeenCalledTimes(4);
});
