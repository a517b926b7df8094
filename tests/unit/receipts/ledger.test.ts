import {
  boundLedger,
  harvestReceipts,
  MAX_LEDGER_RECEIPTS,
  mergeReceipts,
  numberToolCalls,
  parseReceiptNumber,
  readReceiptMessages,
  RECEIPT_ID_KWARG,
  renderReceiptNote,
  reportSnapshot,
  type Receipt,
  type ReceiptMessage,
} from '../../../src/receipts';

/** A visible fake hash: the tests read exactly what was hashed. */
const sha = (text: string) => `sha(${text})`;

const human: ReceiptMessage = { type: 'human' };
const ai = (...calls: Array<[string, string, unknown?]>): ReceiptMessage => ({
  type: 'ai',
  tool_calls: calls.map(([id, name, args]) => ({ id, name, args: args ?? {} })),
});
const result = (callId: string, status: 'success' | 'error' = 'success', stamp?: string): ReceiptMessage => ({
  type: 'tool',
  tool_call_id: callId,
  status,
  additional_kwargs: stamp === undefined ? {} : { [RECEIPT_ID_KWARG]: stamp },
});
const receipt = (n: number, callId: string, name = 'bash', outcome: 'ok' | 'error' = 'ok'): Receipt => ({
  id: `r${n}`,
  tool_name: name,
  args_sha256: 'h',
  outcome,
  tool_call_id: callId,
});

describe('harvestReceipts', () => {
  it('receipts every answered tool call in call order, with hashed canonical args and outcome', () => {
    const messages = [
      human,
      ai(['c1', 'bash', { command: 'ls', description: 'x' }], ['c2', 'write_file', { path: '/a', content: 'b' }]),
      result('c2', 'error'),
      result('c1'),
      ai(['c3', 'bash', { description: 'y', command: 'pwd' }]),
      result('c3'),
      { type: 'ai' },
    ];
    expect(harvestReceipts(messages, sha)).toEqual([
      { id: 'r1', tool_name: 'bash', args_sha256: 'sha({"command":"ls","description":"x"})', outcome: 'ok', tool_call_id: 'c1' },
      { id: 'r2', tool_name: 'write_file', args_sha256: 'sha({"content":"b","path":"/a"})', outcome: 'error', tool_call_id: 'c2' },
      { id: 'r3', tool_name: 'bash', args_sha256: 'sha({"command":"pwd","description":"y"})', outcome: 'ok', tool_call_id: 'c3' },
    ]);
  });

  it('is stable: the same transcript gives the same ids', () => {
    const messages = [human, ai(['a', 'ls'], ['b', 'ls']), result('a'), result('b')];
    expect(harvestReceipts(messages, sha)).toEqual(harvestReceipts([...messages], sha));
  });

  it('skips calls without a result but keeps their position (ids of later calls do not shift)', () => {
    const messages = [human, ai(['c1', 'ls'], ['c2', 'ls']), result('c2'), ai(['c3', 'ls'])];
    expect(harvestReceipts(messages, sha)?.map((r) => [r.id, r.tool_call_id])).toEqual([['r2', 'c2']]);
  });

  it('keeps the first result of a call and the first position of a repeated call id', () => {
    const messages = [human, ai(['c1', 'ls']), result('c1', 'error'), result('c1'), ai(['c1', 'ls'])];
    expect(harvestReceipts(messages, sha)).toEqual([{ id: 'r1', tool_name: 'ls', args_sha256: 'sha({})', outcome: 'error', tool_call_id: 'c1' }]);
  });

  it('keeps only the most recent receipts beyond the bound', () => {
    const messages: ReceiptMessage[] = [human];
    for (let i = 1; i <= MAX_LEDGER_RECEIPTS + 5; i++) messages.push(ai([`c${i}`, 'ls']), result(`c${i}`));
    const ledger = harvestReceipts(messages, sha) ?? [];
    expect(ledger).toHaveLength(200);
    expect([ledger[0]?.id, ledger[199]?.id]).toEqual(['r6', 'r205']);
  });

  it('returns null for a malformed transcript (fail closed)', () => {
    expect(harvestReceipts(undefined, sha)).toBeNull();
    expect(harvestReceipts({ messages: [] }, sha)).toBeNull();
    expect(harvestReceipts([human, 'text'], sha)).toBeNull();
    expect(harvestReceipts([{ content: 'no type' }], sha)).toBeNull();
    expect(harvestReceipts([{ type: 'ai', tool_calls: 'ls' }], sha)).toBeNull();
    expect(harvestReceipts([ai(['c1', 'ls']), result('c1', 'success', 'r0')], sha)).toBeNull();
    expect(harvestReceipts([], sha)).toEqual([]);
  });
});

describe('numberToolCalls (ids across compaction)', () => {
  it('numbers calls by position when nothing is stamped', () => {
    expect(numberToolCalls([ai(['a', 'ls'], ['b', 'ls']), ai(['c', 'ls'])])).toEqual(new Map([['a', 1], ['b', 2], ['c', 3]]));
  });

  it('continues from the stamped ids after older messages were compacted away', () => {
    // r1..r4 were summarized; the kept tail starts at the call stamped r5.
    const tail = [ai(['c5', 'ls'], ['c6', 'ls']), result('c5', 'success', 'r5'), result('c6', 'success', 'r6'), ai(['c7', 'bash'])];
    expect(numberToolCalls(tail)).toEqual(new Map([['c5', 5], ['c6', 6], ['c7', 7]]));
    expect(harvestReceipts([...tail, result('c7')], sha)?.map((r) => r.id)).toEqual(['r5', 'r6', 'r7']);
  });

  it('rejects stamps that disagree with each other or with the positions', () => {
    expect(numberToolCalls([ai(['a', 'ls'], ['b', 'ls']), result('a', 'success', 'r3'), result('b', 'success', 'r9')])).toBeNull();
    expect(numberToolCalls([ai(['a', 'ls'], ['b', 'ls']), result('b', 'success', 'r1')])).toBeNull();
  });

  it('ignores the stamp of a result whose call is not in the transcript', () => {
    expect(numberToolCalls([result('gone', 'success', 'r7'), ai(['a', 'ls'])])).toEqual(new Map([['a', 1]]));
  });
});

describe('parseReceiptNumber and readReceiptMessages', () => {
  it('parses rN with N >= 1 only', () => {
    expect(['r1', 'r42', 'r0', 'r01', 'R1', ' r1', 'r', 7].map(parseReceiptNumber)).toEqual([1, 42, null, null, null, null, null, null]);
  });

  it('accepts LangChain-shaped plain objects and null tool_calls', () => {
    expect(readReceiptMessages([{ type: 'ai', tool_calls: null }])).toEqual([{ type: 'ai', tool_calls: null }]);
  });
});

describe('mergeReceipts', () => {
  it('adds new calls, keeps the first receipt of a known call, orders by number', () => {
    const kept = [receipt(1, 'a'), receipt(2, 'b')];
    expect(mergeReceipts(kept, [receipt(2, 'b', 'bash', 'error'), receipt(3, 'c')])).toEqual([receipt(1, 'a'), receipt(2, 'b'), receipt(3, 'c')]);
    // After compaction the later harvest lacks r1 and r2; they stay.
    expect(mergeReceipts(kept, [receipt(4, 'd')])?.map((r) => r.id)).toEqual(['r1', 'r2', 'r4']);
    expect(mergeReceipts([receipt(10, 'x')], [receipt(2, 'y')])?.map((r) => r.id)).toEqual(['r2', 'r10']);
  });

  it('returns null when one id names two calls (ids restarted)', () => {
    expect(mergeReceipts([receipt(1, 'a')], [receipt(1, 'z')])).toBeNull();
  });

  it('stays bounded', () => {
    const many = Array.from({ length: 150 }, (_, i) => receipt(i + 1, `c${i + 1}`));
    const more = Array.from({ length: 150 }, (_, i) => receipt(i + 151, `c${i + 151}`));
    const merged = mergeReceipts(many, more) ?? [];
    expect([merged.length, merged[0]?.id]).toEqual([200, 'r101']);
    expect(boundLedger(many, 2).map((r) => r.id)).toEqual(['r149', 'r150']);
  });
});

describe('reportSnapshot', () => {
  it('excludes the receipts of calls made by the report message itself (a turn-capped partial)', () => {
    const messages = [human, ai(['a', 'ls']), result('a'), { ...ai(['b', 'ls']), content: 'partial' }, result('b')];
    expect(reportSnapshot([receipt(1, 'a'), receipt(2, 'b')], messages).map((r) => r.id)).toEqual(['r1']);
  });

  it('keeps everything when the report made no calls', () => {
    const messages = [human, ai(['a', 'ls']), result('a'), { type: 'ai' }];
    expect(reportSnapshot([receipt(1, 'a')], messages)).toEqual([receipt(1, 'a')]);
  });
});

describe('renderReceiptNote', () => {
  it('names the id, tool, outcome and the exact citation to use', () => {
    expect(renderReceiptNote(3, 'write_file', 'ok')).toBe('Tool receipts ledger: r3 = write_file (ok). Cite it as [r3 write_file].');
    expect(renderReceiptNote(1, 'bash', 'error')).toBe('Tool receipts ledger: r1 = bash (error). Cite it as [r1 bash].');
  });
});
