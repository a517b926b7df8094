import { emptyCheckpoint, type Checkpoint } from '@langchain/langgraph-checkpoint';
import { useStores, type StoresInit } from './fixtures';

const config = (threadId: string) => ({ configurable: { thread_id: threadId, checkpoint_ns: '' } });

function checkpoint(id: string, messages: string[]): Checkpoint {
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
  });
}
