import { approximateTokens, compactionCut, renderForSummary, shouldCompact } from '../../../src/middleware/compaction';

const human = (content: string) => ({ type: 'human', content });
const ai = (content: string, calls = 0) => ({ type: 'ai', content, tool_calls: Array.from({ length: calls }, (_, i) => ({ id: `c${i}`, name: 'ls', args: {} })) });
const tool = (content: string) => ({ type: 'tool', content });

describe('shouldCompact', () => {
  const messages = [human('task'), ai('a', 1), tool('r'), ai('b', 1), tool('r')];

  test('an empty trigger never fires', () => {
    expect(shouldCompact(messages, {})).toBe(false);
  });

  test('every configured threshold must be met', () => {
    expect(shouldCompact(messages, { messages: 5 })).toBe(true);
    expect(shouldCompact(messages, { messages: 6 })).toBe(false);
    expect(shouldCompact(messages, { messages: 5, tokens: 1_000_000 })).toBe(false);
    expect(shouldCompact(messages, { tokens: 1 })).toBe(true);
  });

  test('tokens are estimated at about 4 characters each, tool calls included', () => {
    expect(approximateTokens([human('x'.repeat(400))])).toBe(Math.ceil((400 + 2) / 4));
  });
});

describe('compactionCut', () => {
  test('keeps the last messages and never starts the tail with an orphaned tool result', () => {
    const messages = [human('task'), ai('a', 1), tool('r1'), ai('b', 1), tool('r2'), ai('c', 1), tool('r3')];
    expect(compactionCut(messages, 2)).toBe(5);
    // Keeping 1 would start at a tool result: the cut moves back to its tool call.
    expect(compactionCut(messages, 1)).toBe(5);
    expect(compactionCut(messages, 7)).toBe(0);
    expect(compactionCut(messages, 50)).toBe(0);
  });
});

test('renderForSummary puts the previous summary first and labels each message', () => {
  expect(renderForSummary('earlier work', [human('task'), ai('thinking', 1), tool('result')])).toBe(
    'Summary so far:\nearlier work\n\n[human] task\n\n[ai] thinking\n(tool calls: [{"id":"c0","name":"ls","args":{}}])\n\n[tool] result',
  );
  expect(renderForSummary(null, [human('task')])).toBe('[human] task');
});
