import type { Stores } from '../../../src/store';
import { event, human } from './fixtures';

/** Creates a fresh, empty storage location and returns an opener for it (callable many times). */
export type StoresLocation = () => Promise<() => Promise<Stores>>;

/** Durable backends: what was written survives close and reopen; several processes may open at once. */
export function persistenceSpec(location: StoresLocation): void {
  describe('persistence', () => {
    it('data survives close and reopen; dedupe keys persist and seq keeps increasing', async () => {
      const open = await location();
      const first = await open();
      const [written] = await first.events.putBatch([event('e1', { payload: { n: 1 } })]);
      await first.messages.putMessageIfAbsent({ threadId: 't1', runId: 'run-1', key: 'k1', message: human('kept') });
      const summary = { threadId: 't1', runId: 'run-1', throughKey: 'k1', text: 'summary of k1' };
      await first.summaries.putSummaryIfAbsent(summary);
      const ref = await first.results.putResult({ threadId: 'thread-1', runId: 'run-1', taskId: 'call_1', attempt: 1, text: 'full result' });
      const agent = await first.agents.createSubagent({ name: 'researcher', description: 'd', system_prompt: 'p' });
      const lead = await first.agents.putLeadAgent({ name: 'lead', allowed_subagents: ['researcher'] });
      const { batch } = await first.batches.createBatch(
        { batchId: 'b1', ownerId: 'u1', title: 't', subagentType: 'researcher', items: [{ key: 'k', prompt: 'p' }], limits: { maxLiveItems: 1, maxRunningItems: 1, maxAttempts: 1 } },
        { maxItems: 10 },
      );
      await first.close();

      const second = await open();
      expect(await second.events.listEvents({ runId: 'run-1' })).toEqual([written]);
      expect(await second.messages.getMessage('t1', 'k1')).toEqual(human('kept'));
      expect(await second.summaries.latestSummary('t1')).toEqual(summary);
      expect((await second.summaries.putSummaryIfAbsent({ ...summary, text: 'again' })).inserted).toBe(false);
      expect(await second.results.getResult(ref)).toBe('full result');
      expect(await second.agents.listSubagents()).toEqual([agent]);
      expect(await second.agents.listLeadAgents()).toEqual([lead]);
      expect(await second.batches.getBatch('b1', 'u1')).toEqual(batch);
      expect(await second.events.putBatch([event('e1')])).toEqual([]);
      const [next] = await second.events.putBatch([event('e2')]);
      expect(next!.seq).toBeGreaterThan(written!.seq);
      await second.close();

      const third = await open();
      expect(await third.events.listEvents({ runId: 'run-1' })).toHaveLength(2);
      await third.close();
    });

    it('several openers at once on a new location (workers starting together) all work on one store', async () => {
      const open = await location();
      const all = await Promise.all(Array.from({ length: 4 }, () => open()));
      try {
        await Promise.all(all.map((s, i) => s.events.putBatch([event(`w${i}`), event('shared')])));
        expect(await all[0]!.events.listEvents({ runId: 'run-1' })).toHaveLength(5);
      } finally {
        await Promise.all(all.map((s) => s.close()));
      }
    });
  });
}
