import { ToolMessage } from '@langchain/core/messages';
import { messageKeys } from '../../../src/store';
import { aiText, human, useStores, type StoresInit } from './fixtures';

/** ThreadMessageStore contract: first write wins per (thread, key), transcripts in write order. */
export function threadMessageStoreSpec(init: StoresInit): void {
  describe('ThreadMessageStore', () => {
    const stores = useStores(init);

    it('putMessageIfAbsent: first write wins', async () => {
      const key = messageKeys.input('run-1');
      const put = (text: string) => stores().messages.putMessageIfAbsent({ threadId: 't1', runId: 'run-1', key, message: human(text) });
      expect(await put('first')).toEqual({ inserted: true });
      expect(await put('second')).toEqual({ inserted: false });
      expect(await stores().messages.getMessage('t1', key)).toEqual(human('first'));
      expect(await stores().messages.listMessages('t1')).toHaveLength(1);
    });

    it('putMessagesIfAbsent: one result per record, in the order given; an existing or repeated key keeps its first', async () => {
      const messages = stores().messages;
      await messages.putMessageIfAbsent({ threadId: 't1', runId: 'run-1', key: 'k0', message: human('zero') });
      const results = await messages.putMessagesIfAbsent([
        { threadId: 't1', runId: 'run-1', key: 'k2', message: human('two') },
        { threadId: 't1', runId: 'run-1', key: 'k0', message: human('zero again') },
        { threadId: 't1', runId: 'run-1', key: 'k1', message: aiText('one') },
        { threadId: 't2', runId: 'run-1', key: 'k2', message: human('other thread') },
        { threadId: 't1', runId: 'run-1', key: 'k1', message: aiText('one again') },
      ]);
      expect(results).toEqual([{ inserted: true }, { inserted: false }, { inserted: true }, { inserted: true }, { inserted: false }]);
      expect((await messages.listMessages('t1')).map((r) => [r.key, r.message])).toEqual([
        ['k0', human('zero')],
        ['k2', human('two')],
        ['k1', aiText('one')],
      ]);
      expect(await messages.getMessage('t2', 'k2')).toEqual(human('other thread'));
      expect(await messages.putMessagesIfAbsent([])).toEqual([]);
    });

    it('the same key in another thread is a different message', async () => {
      const key = messageKeys.input('run-1');
      await stores().messages.putMessageIfAbsent({ threadId: 't1', runId: 'run-1', key, message: human('one') });
      const other = await stores().messages.putMessageIfAbsent({ threadId: 't2', runId: 'run-1', key, message: human('two') });
      expect(other.inserted).toBe(true);
      expect(await stores().messages.getMessage('t2', key)).toEqual(human('two'));
      expect(await stores().messages.getMessage('t1', key)).toEqual(human('one'));
    });

    it('getMessage of a missing key is null', async () => {
      expect(await stores().messages.getMessage('t1', 'run:x:input')).toBeNull();
    });

    it('round-trips AI messages with tool calls and unicode; U+0000 is stored as U+FFFD', async () => {
      const ai = aiText('héllo ✓ 😀');
      const withCalls = { ...ai, data: { ...ai.data, tool_calls: [{ id: 'call_1', name: 'task', args: { n: 1, list: [null, true] } }] } };
      await stores().messages.putMessageIfAbsent({ threadId: 't1', runId: 'r1', key: 'k1', message: withCalls });
      await stores().messages.putMessageIfAbsent({ threadId: 't1', runId: 'r1', key: 'k2', message: human('a\u0000b') });
      expect(await stores().messages.getMessage('t1', 'k1')).toEqual(withCalls);
      expect(await stores().messages.getMessage('t1', 'k2')).toEqual(human('a\uFFFDb'));
    });

    it('replaceMessage replaces an existing message in place', async () => {
      await stores().messages.putMessageIfAbsent({ threadId: 't1', runId: 'r1', key: 'k1', message: human('a') });
      await stores().messages.putMessageIfAbsent({ threadId: 't1', runId: 'r1', key: 'k2', message: aiText('b') });
      await stores().messages.replaceMessage('t1', 'k1', human('a2'));
      expect(await stores().messages.getMessage('t1', 'k1')).toEqual(human('a2'));
      expect((await stores().messages.listMessages('t1')).map((r) => r.key)).toEqual(['k1', 'k2']);
    });

    it('replaceMessage on a missing key throws', async () => {
      await expect(stores().messages.replaceMessage('t1', 'nope', human('x'))).rejects.toThrow('No message nope in thread t1 to replace');
      await stores().messages.putMessageIfAbsent({ threadId: 't1', runId: 'r1', key: 'k1', message: human('a') });
      await expect(stores().messages.replaceMessage('t2', 'k1', human('x'))).rejects.toThrow('No message k1 in thread t2 to replace');
    });

    it('listMessages returns the thread transcript in write order across runs', async () => {
      const tool = new ToolMessage({ content: 'Task Succeeded. Result: ok', tool_call_id: 'call_1', name: 'task' }).toDict();
      const writes = [
        { threadId: 't1', runId: 'run-1', key: messageKeys.input('run-1'), message: human('q1') },
        { threadId: 't1', runId: 'run-1', key: messageKeys.ai('run-1', 0), message: aiText('calling') },
        { threadId: 't2', runId: 'run-x', key: messageKeys.input('run-x'), message: human('other thread') },
        { threadId: 't1', runId: 'run-1', key: messageKeys.tool('run-1', 'call_1'), message: tool },
        { threadId: 't1', runId: 'run-2', key: messageKeys.input('run-2'), message: human('q2') },
        { threadId: 't1', runId: 'run-2', key: messageKeys.ai('run-2', 0), message: aiText('a2') },
      ];
      for (const w of writes) await stores().messages.putMessageIfAbsent(w);
      // A rejected duplicate does not move the original.
      await stores().messages.putMessageIfAbsent({ ...writes[0]!, message: human('dup') });

      expect(await stores().messages.listMessages('t1')).toEqual(writes.filter((w) => w.threadId === 't1'));
      expect((await stores().messages.listMessages('t1')).map((r) => r.key)).toEqual([
        'run:run-1:input',
        'run:run-1:ai:0',
        'run:run-1:tool:call_1',
        'run:run-2:input',
        'run:run-2:ai:0',
      ]);
      expect(await stores().messages.listMessages('t3')).toEqual([]);
    });
  });
}
