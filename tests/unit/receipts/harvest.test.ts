import { ReceiptHarvest, RECEIPT_ID_KWARG, type ReceiptMessage } from '../../../src/receipts';

const sha = (text: string) => `sha(${text})`;
const human: ReceiptMessage = { type: 'human' };
const ai = (content: string, ...calls: Array<[string, string]>) => ({ type: 'ai', content, tool_calls: calls.map(([id, name]) => ({ id, name, args: {} })) });
const result = (callId: string, stamp?: string) => ({
  type: 'tool',
  tool_call_id: callId,
  status: 'success',
  additional_kwargs: stamp ? { [RECEIPT_ID_KWARG]: stamp } : {},
});

describe('ReceiptHarvest', () => {
  it('checks a completed report against the latest snapshot', () => {
    const harvest = new ReceiptHarvest(sha);
    const t1 = [human];
    const t2 = [human, ai('', ['c1', 'bash']), result('c1', 'r1')];
    const t3 = [...t2, ai('Created notes.txt [r1 bash]. Ran the tests [r9 bash]. Deleted the cache.')];
    for (const chunk of [t1, t2, t2, t3]) harvest.observe(chunk);
    expect(harvest.receipts.map((r) => r.id)).toEqual(['r1']);
    expect(harvest.completed('Created notes.txt [r1 bash]. Ran the tests [r9 bash]. Deleted the cache.')).toEqual({
      receipts: 1,
      verdicts: { verified: 1, failed: 0, unknown: 1, unverified: 1 },
      flagged: ['unknown: [r9 bash] is not in the ledger', 'UNVERIFIED: "Deleted the cache." cites no receipt'],
    });
  });

  it('keeps receipts whose results compaction removed from later chunks', () => {
    const harvest = new ReceiptHarvest(sha);
    harvest.observe([human, ai('', ['c1', 'ls']), result('c1', 'r1'), ai('', ['c2', 'ls']), result('c2', 'r2')]);
    // Compaction kept only the last exchange; the next call continues at r3.
    harvest.observe([ai('', ['c2', 'ls']), result('c2', 'r2'), ai('', ['c3', 'ls']), result('c3', 'r3'), ai('Listed it [r1 ls].')]);
    expect(harvest.receipts.map((r) => r.id)).toEqual(['r1', 'r2', 'r3']);
    expect(harvest.completed('Listed it [r1 ls].')?.verdicts.verified).toBe(1);
  });

  it('a turn-capped partial cannot be validated by receipts of its own later tool calls', () => {
    const harvest = new ReceiptHarvest(sha);
    harvest.observe([human, ai('', ['c1', 'ls']), result('c1', 'r1'), ai('partial, see [r2 ls]', ['c2', 'ls']), result('c2', 'r2')]);
    expect(harvest.completed('partial, see [r2 ls]')).toMatchObject({ receipts: 1, verdicts: { verified: 0, unknown: 1 } });
  });

  it('fails closed: no chunk, or a malformed latest chunk, gives a completed report no evidence', () => {
    expect(new ReceiptHarvest(sha).completed('Created x [r1 bash].')).toBeNull();
    const harvest = new ReceiptHarvest(sha);
    harvest.observe([human, ai('', ['c1', 'bash']), result('c1', 'r1')]);
    harvest.observe({ not: 'a list' });
    expect(harvest.completed('Created x [r1 bash].')).toBeNull();
    // Evidence of a run without a report still reports the receipts harvested so far.
    expect(harvest.withoutReport()).toEqual({ receipts: 1, verdicts: { verified: 0, failed: 0, unknown: 0, unverified: 0 }, flagged: [] });
  });

  it('fails closed when ids become ambiguous (restarted numbering)', () => {
    const harvest = new ReceiptHarvest(sha);
    harvest.observe([human, ai('', ['c1', 'bash']), result('c1')]);
    harvest.observe([ai('', ['c9', 'bash']), result('c9'), ai('done')]);
    expect(harvest.completed('done')).toBeNull();
    expect(harvest.withoutReport()).toBeNull();
  });

  it('a failed run keeps the latest evidence without verdicts; nothing streamed means none', () => {
    const harvest = new ReceiptHarvest(sha);
    expect(harvest.withoutReport()).toBeNull();
    harvest.observe([human, ai('', ['c1', 'bash'], ['c2', 'ls']), result('c1'), result('c2')]);
    expect(harvest.withoutReport()).toEqual({ receipts: 2, verdicts: { verified: 0, failed: 0, unknown: 0, unverified: 0 }, flagged: [] });
  });
});
