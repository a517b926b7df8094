import type { ThreadSummaryRecord } from '../../../src/store';
import { useStores, type StoresInit } from './fixtures';

const summary = (throughKey: string, text: string, overrides: Partial<ThreadSummaryRecord> = {}): ThreadSummaryRecord => ({
  threadId: 't1',
  runId: 'run-1',
  throughKey,
  text,
  ...overrides,
});

/** ThreadSummaryStore contract: write-once per (thread, coverage point), latest written is current, texts exact. */
export function threadSummaryStoreSpec(init: StoresInit): void {
  describe('ThreadSummaryStore', () => {
    const stores = useStores(init);

    it('a thread without summaries has none', async () => {
      expect(await stores().summaries.latestSummary('t1')).toBeNull();
    });

    it('putSummaryIfAbsent: first write wins per coverage point, and the stored summary comes back', async () => {
      const first = summary('run:run-1:ai:3', 'first');
      expect(await stores().summaries.putSummaryIfAbsent(first)).toEqual({ inserted: true, summary: first });
      // A retried step that summarized the same messages again keeps the first text.
      const retry = await stores().summaries.putSummaryIfAbsent(summary('run:run-1:ai:3', 'second', { runId: 'run-1-again' }));
      expect(retry).toEqual({ inserted: false, summary: first });
      expect(await stores().summaries.latestSummary('t1')).toEqual(first);
    });

    it('the latest written summary is the current one; threads are apart', async () => {
      const early = summary('run:run-1:ai:3', 'early');
      const later = summary('run:run-2:ai:1', 'early, then more', { runId: 'run-2' });
      await stores().summaries.putSummaryIfAbsent(early);
      await stores().summaries.putSummaryIfAbsent(summary('run:run-1:ai:3', 'other thread', { threadId: 't2' }));
      await stores().summaries.putSummaryIfAbsent(later);
      expect(await stores().summaries.latestSummary('t1')).toEqual(later);
      expect(await stores().summaries.latestSummary('t2')).toEqual(summary('run:run-1:ai:3', 'other thread', { threadId: 't2' }));
      // Rewriting an older coverage point neither changes it nor makes it current.
      expect(await stores().summaries.putSummaryIfAbsent(summary('run:run-1:ai:3', 'late retry'))).toEqual({ inserted: false, summary: early });
      expect(await stores().summaries.latestSummary('t1')).toEqual(later);
    });

    it('stores the text exactly (unicode, U+0000, line breaks, 100k chars, empty)', async () => {
      const text = `héllo ✓ 😀\u0000tail\n<tag>&amp;\n${'x'.repeat(100_000)}`;
      await stores().summaries.putSummaryIfAbsent(summary('k1', text));
      expect((await stores().summaries.latestSummary('t1'))?.text).toBe(text);
      await stores().summaries.putSummaryIfAbsent(summary('k2', ''));
      expect((await stores().summaries.latestSummary('t1'))?.text).toBe('');
    });

    it('keeps summaries apart from the transcript', async () => {
      await stores().summaries.putSummaryIfAbsent(summary('run:run-1:ai:3', 'compacted'));
      expect(await stores().messages.listMessages('t1')).toEqual([]);
    });
  });
}
