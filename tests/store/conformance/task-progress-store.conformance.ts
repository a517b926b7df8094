import type { SubagentProgress } from '../../../src/contracts';
import { useStores, type StoresInit } from './fixtures';

const KEY = { threadId: 'thread-1', runId: 'run-1', taskId: '0.0' };
const usage = (input: number, output: number) => ({ input_tokens: input, output_tokens: output, total_tokens: input + output });
const progress = (steps: number, input: number, receipts = 0): SubagentProgress => ({
  steps,
  usage: usage(input, 5),
  modelName: 'scripted',
  evidence: { receipts, verdicts: { verified: receipts, failed: 0, unknown: 0, unverified: 0 }, flagged: receipts > 1 ? ['claim [r9]: no such receipt'] : [] },
});

/** TaskProgressStore contract: one row per task, the latest progress of its latest attempt. */
export function taskProgressStoreSpec(init: StoresInit): void {
  describe('TaskProgressStore', () => {
    const stores = useStores(init);

    it('keeps the latest progress of a task and reads it back exactly', async () => {
      await stores().progress.putProgress(KEY, { attempt: 1, progress: progress(1, 30) });
      await stores().progress.putProgress(KEY, { attempt: 1, progress: { ...progress(3, 60, 2), resumedFrom: 1 } });
      expect(await stores().progress.getProgress(KEY)).toEqual({ attempt: 1, progress: { ...progress(3, 60, 2), resumedFrom: 1 } });
    });

    it('a later attempt replaces an earlier one, never the other way round', async () => {
      await stores().progress.putProgress(KEY, { attempt: 2, progress: progress(1, 40) });
      await stores().progress.putProgress(KEY, { attempt: 1, progress: progress(9, 90) });
      expect(await stores().progress.getProgress(KEY)).toEqual({ attempt: 2, progress: progress(1, 40) });
      await stores().progress.putProgress(KEY, { attempt: 3, progress: progress(2, 50) });
      expect(await stores().progress.getProgress(KEY)).toEqual({ attempt: 3, progress: progress(2, 50) });
    });

    it('keeps tasks, runs and threads apart; an unknown task has none', async () => {
      await stores().progress.putProgress(KEY, { attempt: 1, progress: progress(1, 30) });
      for (const other of [{ ...KEY, taskId: '0.1' }, { ...KEY, runId: 'run-2' }, { ...KEY, threadId: 'thread-2' }]) {
        expect(await stores().progress.getProgress(other)).toBeNull();
      }
      await stores().progress.putProgress({ ...KEY, taskId: '0.1' }, { attempt: 1, progress: progress(2, 70) });
      expect((await stores().progress.getProgress(KEY))?.progress.usage).toEqual(usage(30, 5));
    });

    it('stores a progress without usage or evidence as it is (absent stays null, never zero)', async () => {
      const bare: SubagentProgress = { steps: 0, usage: null, modelName: null, evidence: null };
      await stores().progress.putProgress(KEY, { attempt: 1, progress: bare });
      expect(await stores().progress.getProgress(KEY)).toEqual({ attempt: 1, progress: bare });
    });
  });
}
