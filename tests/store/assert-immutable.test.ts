import type { StoredMessage } from '@langchain/core/messages';
import type { Stores } from '../../src/store';
import { assertImmutable } from './conformance';
import { event, human } from './conformance/fixtures';
import { openMemoryStores } from '../support/memory-stores';

/** Real SQLite stores whose message and event reads are routed through `tamper`. */
async function tampered(tamper: { message?: (m: StoredMessage) => StoredMessage; mutateInput?: boolean }): Promise<Stores> {
  const real = await openMemoryStores();
  let reads = 0;
  return {
    ...real,
    messages: {
      putMessageIfAbsent: (r) => real.messages.putMessageIfAbsent(r),
      putMessagesIfAbsent: (r) => real.messages.putMessagesIfAbsent(r),
      replaceMessage: (t, k, m) => real.messages.replaceMessage(t, k, m),
      listMessages: (t) => real.messages.listMessages(t),
      getMessage: async (t, k) => {
        const m = await real.messages.getMessage(t, k);
        reads += 1;
        return m !== null && reads > 1 && tamper.message ? tamper.message(m) : m;
      },
    },
    events: {
      listEvents: (q) => real.events.listEvents(q),
      putBatch: (batch) => {
        if (tamper.mutateInput) (batch[0] as { payload: unknown }).payload = 'mutated';
        return real.events.putBatch(batch);
      },
    },
  };
}

describe('assertImmutable (the conformance wrapper)', () => {
  it('fails when a saved record reads back differently later', async () => {
    const stores = assertImmutable(await tampered({ message: () => human('changed') }));
    await stores.messages.putMessageIfAbsent({ threadId: 't', runId: 'r', key: 'k', message: human('original') });
    expect(await stores.messages.getMessage('t', 'k')).toEqual(human('original'));
    await expect(stores.messages.getMessage('t', 'k')).rejects.toThrow('message t/k changed after it was written');
    await stores.close();
  });

  it('allows the changes the contract allows (replaceMessage)', async () => {
    const stores = assertImmutable(await tampered({}));
    await stores.messages.putMessageIfAbsent({ threadId: 't', runId: 'r', key: 'k', message: human('a') });
    expect(await stores.messages.getMessage('t', 'k')).toEqual(human('a'));
    await stores.messages.replaceMessage('t', 'k', human('b'));
    expect(await stores.messages.getMessage('t', 'k')).toEqual(human('b'));
    await stores.close();
  });

  it('fails when a summary reads back differently later (summaries are write-once)', async () => {
    const real = await openMemoryStores();
    const stores = assertImmutable({
      ...real,
      summaries: {
        putSummaryIfAbsent: (r) => real.summaries.putSummaryIfAbsent(r),
        latestSummary: async (t) => {
          const found = await real.summaries.latestSummary(t);
          return found === null ? null : { ...found, text: 'changed' };
        },
      },
    });
    await stores.summaries.putSummaryIfAbsent({ threadId: 't', runId: 'r', throughKey: 'k', text: 'original' });
    await expect(stores.summaries.latestSummary('t')).rejects.toThrow('summary t/k changed after it was written');
    await stores.close();
  });

  it('fails when a store mutates the caller’s input', async () => {
    const stores = assertImmutable(await tampered({ mutateInput: true }));
    await expect(stores.events.putBatch([event('e1')])).rejects.toThrow(TypeError);
    await stores.close();
  });
});
