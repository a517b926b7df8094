import type { RunEvent } from '../../src/contracts';
import { tailRunEvents } from '../../src/gateway';
import { useMemoryStores } from '../support/memory-stores';

describe('tailRunEvents when idle', () => {
  const stores = useMemoryStores();

  it('backs off its store reads and its isOpen checks alike, and still yields a row written later', async () => {
    let openChecks = 0;
    const stop = new AbortController();
    const tail = tailRunEvents({
      events: stores().events,
      runId: 'r1',
      afterSeq: 0,
      isOpen: async () => {
        openChecks += 1;
        return true;
      },
      pollMs: 5,
      pollMaxMs: 80,
      signal: stop.signal,
    });
    const first = tail.next();
    await new Promise((r) => setTimeout(r, 600));
    // 5 → 10 → ... → 80 ms, then 80 ms apart: about 11 checks; at a fixed 5 ms pace, over 100.
    expect(openChecks).toBeGreaterThanOrEqual(3);
    expect(openChecks).toBeLessThanOrEqual(16);

    const written = Date.now();
    await stores().events.putBatch([{ dedupeKey: 'k', runId: 'r1', threadId: 't1', category: 'subagent', event: 'subagent.step', taskId: 'task', payload: {} }]);
    const next = await first;
    expect((next.value as RunEvent).event).toBe('subagent.step');
    expect(Date.now() - written).toBeLessThan(80 + 400);
    stop.abort();
    await expect(tail.next()).resolves.toEqual({ done: true, value: 'aborted' });
  });
});
