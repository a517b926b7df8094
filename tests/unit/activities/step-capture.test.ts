import { AIMessage, AIMessageChunk, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { SUBAGENT_STEP_MAX_CHARS } from '../../../src/contracts';
import { buildSubagentStep, captureNewStepMessages, newStepCursor, takenOverSteps, type StepCursor } from '../../../src/activities/step-capture';

const human = (text: string, id?: string): HumanMessage => new HumanMessage({ content: text, id });
const ai = (text: string, id?: string): AIMessage => new AIMessage({ content: text, id });
const tool = (text: string, toolCallId: string, name: string, id?: string): ToolMessage =>
  new ToolMessage({ content: text, tool_call_id: toolCallId, name, id });

/** Content of each captured message, in order. */
function capture(messages: readonly BaseMessage[], cursor: StepCursor): string[] {
  return captureNewStepMessages(messages, cursor).map((m) => String(m.content));
}

describe('newStepCursor', () => {
  it('starts empty', () => {
    const cursor = newStepCursor();
    expect(cursor.processed).toBe(0);
    expect(cursor.seenIds.size).toBe(0);
    expect(cursor.seenAnonymous).toEqual([]);
  });
});

describe('captureNewStepMessages (SPEC §4.1)', () => {
  it('captures AI and tool messages, ignoring human and system messages', () => {
    const cursor = newStepCursor();
    const messages = [new SystemMessage('sys'), human('Task', 'h1'), ai('thinking', 'a1'), tool('out', 't1', 'ls', 'tm1')];
    const captured = captureNewStepMessages(messages, cursor);
    expect(captured).toEqual([messages[2], messages[3]]);
    expect(cursor.processed).toBe(4);
    expect([...cursor.seenIds]).toEqual(['a1', 'tm1']);
  });

  it('keeps every ToolMessage of a multi-tool tail', () => {
    const cursor = newStepCursor();
    const call = new AIMessage({
      id: 'a1',
      content: '',
      tool_calls: [
        { id: 't1', name: 'ls', args: { path: '/mnt/user-data/workspace' } },
        { id: 't2', name: 'read_file', args: { path: 'a.txt' } },
        { id: 't3', name: 'read_file', args: { path: 'b.txt' } },
      ],
    });
    expect(capture([human('Task'), call], cursor)).toEqual(['']);
    const tail = [human('Task'), call, tool('listing', 't1', 'ls'), tool('A', 't2', 'read_file'), tool('B', 't3', 'read_file')];
    expect(capture(tail, cursor)).toEqual(['listing', 'A', 'B']);
    expect(cursor.processed).toBe(5);
  });

  it('captures id-less tool messages of the same tail even when their content is equal', () => {
    const cursor = newStepCursor();
    const tail = [ai('', 'a1'), tool('ok', 't1', 'write_file'), tool('ok', 't2', 'write_file')];
    expect(captureNewStepMessages(tail, cursor)).toHaveLength(3);
  });

  it('treats AIMessageChunk as an AI step', () => {
    const cursor = newStepCursor();
    expect(capture([new AIMessageChunk({ content: 'chunk', id: 'c1' })], cursor)).toEqual(['chunk']);
  });

  it('an unchanged re-yield is a no-op', () => {
    const cursor = newStepCursor();
    const messages = [human('Task'), ai('one', 'a1'), tool('out', 't1', 'ls')];
    expect(capture(messages, cursor)).toEqual(['one', 'out']);
    expect(capture(messages, cursor)).toEqual([]);
    expect(capture([...messages], cursor)).toEqual([]);
    expect(cursor.processed).toBe(3);
  });

  it('dedups by id: a message whose id was seen is skipped even with new content', () => {
    const cursor = newStepCursor();
    capture([ai('first', 'a1')], cursor);
    expect(capture([ai('first', 'a1'), ai('rewritten', 'a1')], cursor)).toEqual([]);
    expect(capture([ai('first', 'a1'), ai('rewritten', 'a1'), ai('new', 'a2')], cursor)).toEqual(['new']);
  });

  it('dedups id-less messages by their full content', () => {
    const cursor = newStepCursor();
    expect(capture([ai('same')], cursor)).toEqual(['same']);
    // A re-yield that appends an equal id-less message: dropped as a duplicate.
    expect(capture([ai('same'), ai('same')], cursor)).toEqual([]);
    expect(capture([ai('same'), ai('same'), ai('different')], cursor)).toEqual(['different']);
    expect(cursor.seenAnonymous).toHaveLength(2);
  });

  it('an id-less in-place replacement of the last message is captured without growth', () => {
    const cursor = newStepCursor();
    expect(capture([human('Task'), ai('draft')], cursor)).toEqual(['draft']);
    expect(capture([human('Task'), ai('final')], cursor)).toEqual(['final']);
    expect(cursor.processed).toBe(2);
  });

  it('only re-examines the last message when the list did not grow', () => {
    const cursor = newStepCursor();
    capture([human('Task'), ai('a'), ai('b')], cursor);
    // The middle message changed in place, the last did not: nothing is captured.
    expect(capture([human('Task'), ai('a-changed'), ai('b')], cursor)).toEqual([]);
  });

  it('contraction resets the cursor, then appended messages are captured', () => {
    const cursor = newStepCursor();
    const long = [human('Task', 'h1'), ai('1', 'a1'), tool('r1', 't1', 'ls', 'tm1'), ai('2', 'a2'), tool('r2', 't2', 'ls', 'tm2'), ai('3', 'a3')];
    expect(capture(long, cursor)).toEqual(['1', 'r1', '2', 'r2', '3']);
    expect(cursor.processed).toBe(6);

    // Compaction rewrote history to 3 messages (all already seen).
    const compacted = [human('Task', 'h1'), tool('r2', 't2', 'ls', 'tm2'), ai('3', 'a3')];
    expect(capture(compacted, cursor)).toEqual([]);
    expect(cursor.processed).toBe(3);

    // New work appended after compaction: captured although the list is shorter than before.
    const grown = [...compacted, tool('r3', 't3', 'ls', 'tm3'), ai('4', 'a4')];
    expect(capture(grown, cursor)).toEqual(['r3', '4']);
    expect(cursor.processed).toBe(5);
  });

  it('without the reset, messages appended after contraction would be missed', () => {
    // Guard for the cursor arithmetic: 4 seen → compacted to 1 → grows to 3.
    const cursor = newStepCursor();
    capture([human('T', 'h'), ai('a', 'a1'), ai('b', 'a2'), ai('c', 'a3')], cursor);
    capture([ai('c', 'a3')], cursor);
    expect(capture([ai('c', 'a3'), ai('d', 'a4'), ai('e', 'a5')], cursor)).toEqual(['d', 'e']);
  });

  it('handles an empty list', () => {
    const cursor = newStepCursor();
    expect(captureNewStepMessages([], cursor)).toEqual([]);
    expect(cursor.processed).toBe(0);
  });
});

describe('buildSubagentStep (SPEC §4.2)', () => {
  it('uses 8192 as the default cap', () => {
    expect(SUBAGENT_STEP_MAX_CHARS).toBe(8192);
  });

  it('builds an AI step with structured tool-call args', () => {
    const message = new AIMessage({
      content: 'Listing files',
      tool_calls: [
        { id: 't1', name: 'ls', args: { path: '/mnt/user-data/workspace' } },
        { id: 't2', name: 'read_file', args: { path: 'café.md', limit: 10 } },
      ],
    });
    expect(buildSubagentStep(message, 'call_1', 2)).toEqual({
      task_id: 'call_1',
      message_index: 2,
      kind: 'ai',
      text: 'Listing files',
      truncated: false,
      tool_calls: [
        { name: 'ls', args: { path: '/mnt/user-data/workspace' } },
        { name: 'read_file', args: { path: 'café.md', limit: 10 } },
      ],
    });
  });

  it('an AI step without tool calls has an empty tool_calls list and no tool_name', () => {
    const step = buildSubagentStep(new AIMessage('done'), 'call_1', 5);
    expect(step).toEqual({ task_id: 'call_1', message_index: 5, kind: 'ai', text: 'done', truncated: false, tool_calls: [] });
    expect(step).not.toHaveProperty('tool_name');
  });

  it('builds a tool step carrying tool_name and no tool_calls', () => {
    const step = buildSubagentStep(tool('file contents', 't1', 'read_file'), 'call_1', 3);
    expect(step).toEqual({ task_id: 'call_1', message_index: 3, kind: 'tool', text: 'file contents', truncated: false, tool_name: 'read_file' });
    expect(step).not.toHaveProperty('tool_calls');
  });

  it('a tool step without a name has tool_name null', () => {
    const step = buildSubagentStep(new ToolMessage({ content: 'x', tool_call_id: 't1' }), 'call_1', 1);
    expect(step.tool_name).toBeNull();
  });

  it('joins list content text blocks with newlines, skipping non-text and empty blocks', () => {
    const message = new AIMessage({
      content: [
        { type: 'text', text: 'one' },
        { type: 'image_url', image_url: 'data:image/png;base64,AAAA' },
        { type: 'text', text: '' },
        { type: 'text', text: 'two' },
      ],
    });
    expect(buildSubagentStep(message, 'call_1', 1).text).toBe('one\ntwo');
  });

  it('keeps text of exactly 8192 chars and truncates 8193 chars', () => {
    const exact = buildSubagentStep(new AIMessage('x'.repeat(8192)), 'call_1', 1);
    expect(exact.text).toHaveLength(8192);
    expect(exact.truncated).toBe(false);

    const over = buildSubagentStep(tool(`${'y'.repeat(8192)}TAIL`, 't1', 'bash'), 'call_1', 1);
    expect(over.text).toBe('y'.repeat(8192));
    expect(over.truncated).toBe(true);
  });

  it('honours a custom cap', () => {
    expect(buildSubagentStep(new AIMessage('abcdef'), 't', 1, 4)).toMatchObject({ text: 'abcd', truncated: true });
  });

  it('serializes and truncates long tool-call args, flagging args_truncated', () => {
    const args = { path: 'big.txt', content: 'z'.repeat(9000) };
    const message = new AIMessage({ content: 'writing', tool_calls: [{ id: 't1', name: 'write_file', args }] });
    const step = buildSubagentStep(message, 'call_1', 1);
    const serialized = JSON.stringify(args);
    expect(step.tool_calls).toEqual([{ name: 'write_file', args: serialized.slice(0, 8192), args_truncated: true }]);
    expect(step.text).toBe('writing');
    expect(step.truncated).toBe(false);
  });

  it('truncates only the long call of a multi-call step', () => {
    const message = new AIMessage({
      content: '',
      tool_calls: [
        { id: 't1', name: 'write_file', args: { content: 'q'.repeat(50) } },
        { id: 't2', name: 'ls', args: { path: '.' } },
      ],
    });
    const step = buildSubagentStep(message, 'call_1', 1, 20);
    expect(step.tool_calls).toEqual([
      { name: 'write_file', args: '{"content":"qqqqqqqq', args_truncated: true },
      { name: 'ls', args: { path: '.' } },
    ]);
  });

  it('keeps args structured when the serialized args are exactly at the cap', () => {
    const args = { a: 'bcd' }; // {"a":"bcd"} = 11 chars
    const message = new AIMessage({ content: '', tool_calls: [{ id: 't1', name: 'x', args }] });
    expect(buildSubagentStep(message, 't', 1, 11).tool_calls).toEqual([{ name: 'x', args: { a: 'bcd' } }]);
    expect(buildSubagentStep(message, 't', 1, 10).tool_calls).toEqual([{ name: 'x', args: '{"a":"bcd"', args_truncated: true }]);
  });
});

test('steps of a taken-over conversation are numbered from 1 and carry the usage after them', () => {
  const withUsage = (text: string, output: number) => new AIMessage({ content: text, usage_metadata: { input_tokens: 10, output_tokens: output, total_tokens: 10 + output } });
  const steps = takenOverSteps([new SystemMessage('rules'), human('go'), withUsage('look', 1), tool('a.md', 'c1', 'ls'), withUsage('done', 2)], '0.1');
  expect(steps.map((s) => [s.step.message_index, s.step.kind, s.step.text, s.step.task_id])).toEqual([
    [1, 'ai', 'look', '0.1'],
    [2, 'tool', 'a.md', '0.1'],
    [3, 'ai', 'done', '0.1'],
  ]);
  expect(steps.map((s) => s.usage?.output_tokens)).toEqual([1, 1, 3]);
});
