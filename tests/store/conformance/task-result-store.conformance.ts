import { taskResultRef } from '../../../src/store';
import { useStores, type StoresInit } from './fixtures';

/** TaskResultStore contract: full texts under `result:<run>:<task>:<attempt>`, stored exactly. */
export function taskResultStoreSpec(init: StoresInit): void {
  describe('TaskResultStore', () => {
    const stores = useStores(init);
    const put = (attempt: number, text: string) => stores().results.putResult({ threadId: 'thread-1', runId: 'run-1', taskId: 'call_1', attempt, text });

    it('formats refs', () => {
      expect(taskResultRef('thread-1', 'run-1', 'call_1', 2)).toBe('result:thread-1:run-1:call_1:2');
    });

    it('put/get round-trips the full text exactly (unicode, U+0000, 100k chars) under the ref', async () => {
      const text = `héllo ✓ 😀\u0000tail\n${'x'.repeat(100_000)}`;
      const ref = await put(1, text);
      expect(ref).toBe('result:thread-1:run-1:call_1:1');
      expect(await stores().results.getResult(ref)).toBe(text);
    });

    it('keeps attempts apart', async () => {
      const r1 = await put(1, 'one');
      const r2 = await put(2, 'two');
      expect(r1).not.toBe(r2);
      expect(await stores().results.getResult(r1)).toBe('one');
      expect(await stores().results.getResult(r2)).toBe('two');
    });

    it('a rewrite of the same execution replaces its text (the latest execution is the one the workflow holds)', async () => {
      const ref = await put(1, 'from the crashed execution');
      expect(await put(1, 'from the retry')).toBe(ref);
      expect(await stores().results.getResult(ref)).toBe('from the retry');
    });

    it('an unknown ref is null', async () => {
      expect(await stores().results.getResult('result:run-1:call_9:1')).toBeNull();
    });

    it('an empty text is stored, not confused with a missing one', async () => {
      expect(await stores().results.getResult(await put(1, ''))).toBe('');
    });
  });
}
