import { AIMessage, mapChatMessagesToStoredMessages } from '@langchain/core/messages';
import { tmpdir } from 'node:os';
import { LeadTurnTaskPrompts } from '../../../src/activities/lead-turn-task-prompts';
import { messageKeys, openStores, type Stores } from '../../../src/store';

const task = (id: string, prompt: unknown, extra: Record<string, unknown> = {}) => ({
  id,
  name: 'task',
  args: { subagent_type: 'general-purpose', description: `call ${id}`, prompt, ...extra },
});

let stores: Stores;
beforeEach(async () => {
  stores = await openStores({ dataDir: tmpdir(), postgresUrl: null, sqlitePath: ':memory:' });
});
afterEach(() => stores.close());

async function storeTurn(turn: number, toolCalls: ReturnType<typeof task>[]): Promise<void> {
  const [message] = mapChatMessagesToStoredMessages([new AIMessage({ content: '', tool_calls: toolCalls })]);
  if (message === undefined) throw new Error('not serialized');
  await stores.messages.putMessageIfAbsent({ threadId: 'thread-1', runId: 'run-1', key: messageKeys.ai('run-1', turn), message });
}

test('every task of a response reads and parses the stored response once', async () => {
  await storeTurn(0, [task('call_a', 'first'), task('call_b', 'second', { acceptance_criteria: ['cites a source'] }), task('call_a', 'repeated id'), task('call_c', 42)]);
  const getMessage = jest.spyOn(stores.messages, 'getMessage');
  const prompts = new LeadTurnTaskPrompts(stores.messages);
  const found = await Promise.all(['call_a', 'call_b', 'call_c', 'call_x'].map((id) => prompts.promptOf('thread-1', 'run-1', 0, id)));
  expect(found).toEqual([
    // The first call of a repeated id is the one a task of that id runs.
    { prompt: 'first', acceptanceCriteria: undefined },
    { prompt: 'second', acceptanceCriteria: ['cites a source'] },
    // Arguments that do not validate, and an id the response does not hold, give no prompt.
    null,
    null,
  ]);
  expect(await prompts.promptOf('thread-1', 'run-1', 0, 'call_b')).toEqual({ prompt: 'second', acceptanceCriteria: ['cites a source'] });
  expect(getMessage).toHaveBeenCalledTimes(1);
  // Another thread's response of the same run id and turn is another message.
  expect(await prompts.promptOf('thread-2', 'run-1', 0, 'call_a')).toBeNull();
  expect(getMessage).toHaveBeenCalledTimes(2);
});

test('a read that failed or found no response is not kept: the next one reads the store again', async () => {
  const getMessage = jest.spyOn(stores.messages, 'getMessage');
  const prompts = new LeadTurnTaskPrompts(stores.messages);
  expect(await prompts.promptOf('thread-1', 'run-1', 1, 'call_a')).toBeNull();
  await storeTurn(1, [task('call_a', 'late')]);
  expect(await prompts.promptOf('thread-1', 'run-1', 1, 'call_a')).toEqual({ prompt: 'late', acceptanceCriteria: undefined });

  getMessage.mockRejectedValueOnce(new Error('connect ECONNREFUSED 127.0.0.1:5432'));
  await expect(prompts.promptOf('thread-1', 'run-1', 2, 'call_a')).rejects.toThrow('ECONNREFUSED');
  await storeTurn(2, [task('call_a', 'after the outage')]);
  expect(await prompts.promptOf('thread-1', 'run-1', 2, 'call_a')).toEqual({ prompt: 'after the outage', acceptanceCriteria: undefined });
  expect(getMessage).toHaveBeenCalledTimes(4);
});
