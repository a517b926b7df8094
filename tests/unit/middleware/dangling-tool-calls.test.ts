import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';

import { DANGLING_REPAIR_KEY, DANGLING_TOOL_CALL_TEXT, repairDanglingToolCalls } from '../../../src/middleware';
import { checkProviderRequest } from '../../../src/models';

const human = (text = 'go'): HumanMessage => new HumanMessage(text);
/** An assistant message with one tool call per `[id, tool]`. */
const calls = (...specs: Array<[string, string]>): AIMessage =>
  new AIMessage({ content: '', tool_calls: specs.map(([id, name]) => ({ type: 'tool_call' as const, id, name, args: {} })) });
const answer = (id: string, content = `result of ${id}`): ToolMessage => new ToolMessage({ content, tool_call_id: id });
const repair = (messages: readonly BaseMessage[]): BaseMessage[] => repairDanglingToolCalls(messages, (fields) => new ToolMessage(fields));

/** A made-up answer as the repair writes it. */
function expectSynthetic(message: BaseMessage | undefined, id: string, tool: string): void {
  expect(ToolMessage.isInstance(message)).toBe(true);
  expect(message).toMatchObject({
    tool_call_id: id,
    name: tool,
    status: 'error',
    content: DANGLING_TOOL_CALL_TEXT,
    additional_kwargs: { [DANGLING_REPAIR_KEY]: true },
  });
}

describe('repairDanglingToolCalls', () => {
  it('answers a dangling call at the end of the thread', () => {
    const ai = calls(['c1', 'bash']);
    const input = [human(), ai];
    const out = repair(input);
    expect(out).toHaveLength(3);
    expect(out.slice(0, 2)).toEqual([input[0], ai]);
    expect(out[0]).toBe(input[0]);
    expect(out[1]).toBe(ai);
    expectSynthetic(out[2], 'c1', 'bash');
    expect(out[2]?.content).toBe('not run: the run ended before this call was answered');
    expect(checkProviderRequest(input)).toMatchObject({ rule: 'unanswered_tool_call', index: 1 });
    expect(checkProviderRequest(out)).toBeNull();
  });

  it('answers a dangling call in the middle, before the following human message', () => {
    const first = human('one');
    const ai = calls(['c1', 'read_file']);
    const next = human('two');
    const reply = new AIMessage('ok');
    const out = repair([first, ai, next, reply]);
    expect(out.map((m) => m.type)).toEqual(['human', 'ai', 'tool', 'human', 'ai']);
    expectSynthetic(out[2], 'c1', 'read_file');
    expect([out[0], out[1], out[3], out[4]]).toEqual([first, ai, next, reply]);
    expect(checkProviderRequest(out)).toBeNull();
  });

  it('keeps the existing answers of a partially answered response and makes up the rest, in call order', () => {
    const ai = calls(['c1', 'bash'], ['c2', 'ls'], ['c3', 'web_search']);
    const a2 = answer('c2');
    const input = [human(), ai, a2];
    const out = repair(input);
    expect(out).toHaveLength(5);
    expectSynthetic(out[2], 'c1', 'bash');
    expect(out[3]).toBe(a2);
    expectSynthetic(out[4], 'c3', 'web_search');
    expect(out.slice(0, 2)).toEqual(input.slice(0, 2));
    expect(checkProviderRequest(input)).not.toBeNull();
    expect(checkProviderRequest(out)).toBeNull();
  });

  it('moves tool messages written late (after a human message, out of call order) right after their call', () => {
    const ai = calls(['c1', 'bash'], ['c2', 'ls']);
    const note = human('meanwhile');
    const a1 = answer('c1');
    const a2 = answer('c2');
    const reply = new AIMessage('done');
    const input = [new SystemMessage('sys'), human(), ai, note, a2, a1, reply];
    const out = repair(input);
    expect(out).toEqual([input[0], input[1], ai, a1, a2, note, reply]);
    expect(out[3]).toBe(a1);
    expect(out[4]).toBe(a2);
    expect(out[5]).toBe(note);
    expect(checkProviderRequest(input)).toMatchObject({ rule: 'unanswered_tool_call', index: 2 });
    expect(checkProviderRequest(out)).toBeNull();
  });

  it('drops orphan tool messages: before any call, after an answered call, and for ids of no call', () => {
    const ai = calls(['c1', 'bash']);
    const a1 = answer('c1');
    const reply = new AIMessage('done');
    const input = [human(), answer('zz'), ai, answer('c9'), a1, answer('c1', 'a second answer'), reply, answer('c1', 'after the reply')];
    const out = repair(input);
    expect(out).toEqual([input[0], ai, a1, reply]);
    expect(out.every((m, i) => m === [input[0], ai, a1, reply][i])).toBe(true);
    expect(checkProviderRequest(input)).toMatchObject({ rule: 'orphan_tool_message', index: 1 });
    expect(checkProviderRequest(out)).toBeNull();
  });

  it('returns a well-formed thread unchanged: the same instances in the same order', () => {
    const input: BaseMessage[] = [
      new SystemMessage('sys'),
      human('one'),
      calls(['c1', 'bash'], ['c2', 'ls']),
      answer('c1'),
      answer('c2'),
      new AIMessage('found it'),
      human('two'),
      calls(['c3', 'read_file']),
      answer('c3'),
      new AIMessage('done'),
    ];
    const frozen = [...input];
    const out = repair(input);
    expect(out).not.toBe(input);
    expect(out).toHaveLength(input.length);
    out.forEach((m, i) => expect(m).toBe(input[i]));
    expect(input).toEqual(frozen);
    expect(checkProviderRequest(out)).toBeNull();
  });

  it('makes up nothing when no call dangles', () => {
    let made = 0;
    repairDanglingToolCalls([human(), calls(['c1', 'bash']), answer('c1')], (fields) => {
      made += 1;
      return new ToolMessage(fields);
    });
    expect(made).toBe(0);
  });

  it('repairs a whole old thread into one strict providers accept', () => {
    const input: BaseMessage[] = [
      new SystemMessage('sys'),
      human('one'),
      calls(['c1', 'task'], ['c2', 'task']),
      answer('c2'),
      human('are you there?'),
      answer('c1'),
      calls(['c3', 'bash']),
      human('two'),
      answer('c4'),
      new AIMessage('done'),
      calls(['c5', 'ls']),
    ];
    const out = repair(input);
    expect(checkProviderRequest(input)).not.toBeNull();
    expect(checkProviderRequest(out)).toBeNull();
    expect(out.map((m) => m.type)).toEqual(['system', 'human', 'ai', 'tool', 'tool', 'human', 'ai', 'tool', 'human', 'ai', 'ai', 'tool']);
    expect(out.filter((m) => m.additional_kwargs[DANGLING_REPAIR_KEY] === true).map((m) => (m as ToolMessage).tool_call_id)).toEqual(['c3', 'c5']);
  });
});
