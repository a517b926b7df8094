import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { emptyCheckpoint, type Checkpoint } from '@langchain/langgraph-checkpoint';
import { MockActivityEnvironment } from '@temporalio/testing';
import { ConversationCheckpoints } from '../../../src/activities/conversation-checkpoints';
import { dropCheckpoints, subagentCheckpointThread, takeOverCheckpoint } from '../../../src/activities/subagent-checkpoint';
import { useStores, type StoresInit } from './fixtures';

const config = (threadId: string) => ({ configurable: { thread_id: threadId, checkpoint_ns: '' } });

function checkpoint(id: string, messages: unknown[]): Checkpoint {
  return { ...emptyCheckpoint(), id, channel_values: { messages }, channel_versions: { messages: id } };
}

/** The subagent checkpointer (LangGraph's saver on the store's backend): latest wins per thread, threads apart, delete removes one. */
export function checkpointsSpec(init: StoresInit): void {
  describe('checkpoints', () => {
    const stores = useStores(init);

    it('deleting a thread nobody wrote works on fresh stores (a first attempt starts with it)', async () => {
      await expect(stores().checkpoints.deleteThread('task-1')).resolves.toBeUndefined();
      expect(await stores().checkpoints.getTuple(config('task-1'))).toBeUndefined();
    });

    it('returns the latest checkpoint of a thread with its values; threads are apart; deleting one keeps the others', async () => {
      const saver = stores().checkpoints;
      const first = await saver.put(config('task-1'), checkpoint('1ef00000-0000-6000-8000-000000000001', ['a']), { source: 'loop', step: 0, parents: {} }, { messages: '1ef00000-0000-6000-8000-000000000001' });
      await saver.put(first, checkpoint('1ef00000-0000-6000-8000-000000000002', ['a', 'b']), { source: 'loop', step: 1, parents: {} }, { messages: '1ef00000-0000-6000-8000-000000000002' });
      await saver.put(config('task-2'), checkpoint('1ef00000-0000-6000-8000-000000000003', ['x']), { source: 'loop', step: 0, parents: {} }, { messages: '1ef00000-0000-6000-8000-000000000003' });

      const latest = await saver.getTuple(config('task-1'));
      expect(latest?.checkpoint.id).toBe('1ef00000-0000-6000-8000-000000000002');
      expect(latest?.checkpoint.channel_values['messages']).toEqual(['a', 'b']);
      expect(latest?.metadata?.step).toBe(1);

      await saver.deleteThread('task-1');
      expect(await saver.getTuple(config('task-1'))).toBeUndefined();
      expect((await saver.getTuple(config('task-2')))?.checkpoint.channel_values['messages']).toEqual(['x']);
    });
    it('a later attempt takes over the newest earlier attempt that checkpointed, into a thread of its own the earlier one cannot delete', async () => {
      const saver = stores().checkpoints;
      const task = { threadId: 'thread-1', runId: 'run-1', taskId: '0.0' };
      const conversation = [
        new HumanMessage('go'),
        new AIMessage({ content: '', tool_calls: [{ id: 'c1', name: 'ls', args: {} }], usage_metadata: { input_tokens: 10, output_tokens: 3, total_tokens: 13 } }),
        new ToolMessage({ content: 'a.md', tool_call_id: 'c1' }),
      ];
      const id = '1ef00000-0000-6000-8000-000000000010';
      // Attempt 1 stored two steps and one finished write of the next step; attempt 2 died before its first checkpoint.
      const stored = await saver.put(config(subagentCheckpointThread(task, 1)), checkpoint(id, conversation), { source: 'loop', step: 3, parents: {} }, { messages: id });
      await saver.putWrites(stored, [['messages', ['late']]], 'tools-task');

      const point = await takeOverCheckpoint(saver, task, 3);
      expect(point).toMatchObject({ graphStep: 3, steps: 2, usage: { input_tokens: 10, output_tokens: 3 } });

      // Attempt 1, still running after its lease lapsed, ends and deletes its own thread.
      await saver.deleteThread(subagentCheckpointThread(task, 1));
      const own = await saver.getTuple(config(subagentCheckpointThread(task, 3)));
      expect((own?.checkpoint.channel_values['messages'] as unknown[]).map((m) => (m as HumanMessage).content)).toEqual(['go', '', 'a.md']);
      expect(own?.metadata?.step).toBe(3);
      expect(own?.pendingWrites).toEqual([['tools-task', 'messages', ['late']]]);

      expect(await takeOverCheckpoint(saver, { ...task, taskId: '0.1' }, 2)).toBeNull();
      await dropCheckpoints(saver, task, 3);
      expect(await saver.getTuple(config(subagentCheckpointThread(task, 3)))).toBeUndefined();
    });
    it('a checkpoint stored after skipped hook steps carries the channels those steps changed, and its writes follow it', async () => {
      const id = (n: number) => `1ef00000-0000-6000-8000-00000000002${n}`;
      const go = new HumanMessage({ id: 'm0', content: 'go' });
      const answer = new AIMessage({ id: 'm1', content: '', tool_calls: [{ id: 'c1', name: 'noop', args: {} }] });
      const step = (n: number, messages: unknown[], guard: string) => ({
        ...emptyCheckpoint(),
        id: id(n),
        channel_values: { messages, guard },
        channel_versions: { messages: id(n), guard: id(n) },
      });
      const latest = () => stores().checkpoints.getTuple(config('hooks'));
      await new MockActivityEnvironment().run(async () => {
        const saver = new ConversationCheckpoints(stores().checkpoints);
        let at = await saver.put(config('hooks'), step(1, [go], 'g1'), { source: 'loop', step: 0, parents: {} }, { messages: id(1), guard: id(1) });
        // The input alone is never stored: resuming it is starting over.
        await saver.storeHeld();
        expect(await latest()).toBeUndefined();
        // A hook step: only the guard's state changed; it is not stored, and neither are its writes.
        at = await saver.put(at, step(2, [go], 'g2'), { source: 'loop', step: 1, parents: {} }, { guard: id(2) });
        await saver.putWrites(at, [['guard', 'late']], 'hook-task');
        // The response is held with the guard value of the skipped step, and so are its step's writes ...
        at = await saver.put(at, { ...step(3, [go, answer], 'g2'), channel_versions: { messages: id(3), guard: id(2) } }, { source: 'loop', step: 2, parents: {} }, { messages: id(3) });
        await saver.putWrites(at, [['guard', 'g3']], 'after-model-task');
        expect(await latest()).toBeUndefined();
        expect(saver.storedAny).toBe(false);
        // ... until a call starts.
        await saver.storeHeld();
        expect(saver.storedAny).toBe(true);
      });
      const stored = await latest();
      expect(stored?.checkpoint.id).toBe(id(3));
      expect(stored?.checkpoint.channel_values['guard']).toBe('g2');
      expect(stored?.pendingWrites).toEqual([['after-model-task', 'guard', 'g3']]);
    });
  });
}
