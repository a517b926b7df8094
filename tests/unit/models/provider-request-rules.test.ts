import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';

import { checkProviderRequest, ProviderRequestRule } from '../../../src/models/provider-request-rules';

const sys = (text = 'be brief'): SystemMessage => new SystemMessage(text);
const human = (text = 'go'): HumanMessage => new HumanMessage(text);
const says = (text: string): AIMessage => new AIMessage(text);
/** An assistant message calling `bash` once per id. */
const calls = (...ids: Array<string | undefined>): AIMessage =>
  new AIMessage({ content: '', tool_calls: ids.map((id) => ({ type: 'tool_call' as const, id, name: 'bash', args: {} })) });
const answer = (id: string): ToolMessage => new ToolMessage({ content: 'ok', tool_call_id: id });

/** The violation as `[rule, index, detail]`, or null. */
function check(messages: BaseMessage[]): [string, number | null, string] | null {
  const found = checkProviderRequest(messages);
  return found === null ? null : [found.rule, found.index, found.detail];
}

describe('checkProviderRequest accepts what strict providers accept', () => {
  it.each<[string, BaseMessage[]]>([
    ['one human message', [human()]],
    ['a system message then a human message', [sys(), human()]],
    ['answered calls in any order, then text and a new turn', [sys(), human(), calls('c1', 'c2'), answer('c2'), answer('c1'), says('done'), human('again')]],
    ['several tool rounds with unique ids', [human(), calls('c1'), answer('c1'), calls('c2', 'c3'), answer('c2'), answer('c3'), says('done')]],
    ['an assistant message without tool calls between turns', [human(), says('hi'), human('more')]],
    ['a request ending with the tool answers', [human(), calls('c1'), answer('c1')]],
  ])('%s', (_name, messages) => {
    expect(check(messages)).toBeNull();
  });

  it('reads plain message-like objects too', () => {
    const plain = [{ type: 'human' }, { type: 'ai', tool_calls: [{ id: 'c1', name: 'bash' }] }, { type: 'tool', tool_call_id: 'c1' }];
    expect(checkProviderRequest(plain)).toBeNull();
    expect(checkProviderRequest(plain.slice(0, 2))).toMatchObject({ rule: 'unanswered_tool_call', index: 1 });
  });
});

describe('checkProviderRequest rejects what strict providers reject', () => {
  it('(a) an assistant tool call without a tool message right after it', () => {
    const detail = (i: number, id: string): string => `messages[${i}]: assistant tool call '${id}' has no tool message after it`;
    // Dangling at the end of the request.
    expect(check([human(), calls('c1')])).toEqual([ProviderRequestRule.UnansweredToolCall, 1, detail(1, 'c1')]);
    // Answered only after another (non-tool) message.
    expect(check([human(), calls('c1'), human('wait'), answer('c1')])).toEqual(['unanswered_tool_call', 1, detail(1, 'c1')]);
    expect(check([human(), calls('c1'), says('hm'), answer('c1')])).toEqual(['unanswered_tool_call', 1, detail(1, 'c1')]);
    // Partially answered: the first unanswered call in call order is named.
    expect(check([human(), calls('c1', 'c2', 'c3'), answer('c1')])).toEqual(['unanswered_tool_call', 1, detail(1, 'c2')]);
    // In a middle round.
    expect(check([sys(), human(), calls('c1'), answer('c1'), calls('c2'), says('x'), human()])).toEqual(['unanswered_tool_call', 4, detail(4, 'c2')]);
  });

  it('(b) a tool message without its call', () => {
    const detail = (i: number, id: string): string => `messages[${i}]: tool message without its call (tool_call_id '${id}')`;
    expect(check([human(), answer('c1')])).toEqual([ProviderRequestRule.OrphanToolMessage, 1, detail(1, 'c1')]);
    // An id of no call of the assistant message the tool run follows.
    expect(check([human(), calls('c1'), answer('c1'), answer('c9')])).toEqual(['orphan_tool_message', 3, detail(3, 'c9')]);
    // An id of an earlier assistant message, not the closest one with tool calls.
    expect(check([human(), calls('c1'), answer('c1'), calls('c2'), answer('c1'), answer('c2')])).toEqual(['orphan_tool_message', 4, detail(4, 'c1')]);
    // A repeated answer after a later assistant message or a human message.
    expect(check([human(), calls('c1'), answer('c1'), says('done'), answer('c1')])).toEqual(['orphan_tool_message', 4, detail(4, 'c1')]);
    expect(check([human(), calls('c1'), answer('c1'), human('and'), answer('c1')])).toEqual(['orphan_tool_message', 4, detail(4, 'c1')]);
  });

  it('(c) duplicate tool-call ids in one request', () => {
    expect(check([human(), calls('c1'), answer('c1'), calls('c1'), answer('c1')])).toEqual([
      ProviderRequestRule.DuplicateToolCallId,
      3,
      "messages[3]: duplicate tool call id 'c1' (also used in messages[1])",
    ]);
    expect(check([human(), calls('c1', 'c1'), answer('c1')])).toEqual([
      'duplicate_tool_call_id',
      1,
      "messages[1]: duplicate tool call id 'c1' (also used in messages[1])",
    ]);
  });

  it('empty tool-call ids, on a call or on a tool message', () => {
    expect(check([human(), calls('c1', ''), answer('c1'), answer('')])).toEqual([
      ProviderRequestRule.MissingToolCallId,
      1,
      "messages[1]: assistant tool call #1 ('bash') has an empty id",
    ]);
    expect(check([human(), calls(undefined)])).toEqual(['missing_tool_call_id', 1, "messages[1]: assistant tool call #0 ('bash') has an empty id"]);
    expect(check([human(), calls('c1'), answer('c1'), answer('')])).toEqual(['missing_tool_call_id', 3, 'messages[3]: tool message has an empty tool_call_id']);
  });

  it('(d) more than one system message, or one that is not first', () => {
    expect(check([sys(), human(), sys('again')])).toEqual([
      ProviderRequestRule.SystemMessagePlacement,
      2,
      'messages[2]: more than one system message (the first is messages[0])',
    ]);
    expect(check([sys(), sys('again'), human()])).toEqual(['system_message_placement', 1, 'messages[1]: more than one system message (the first is messages[0])']);
    expect(check([human(), sys()])).toEqual(['system_message_placement', 1, 'messages[1]: the system message must be the first message']);
  });

  it('(e) an empty request, or nothing after the system message', () => {
    expect(check([])).toEqual([ProviderRequestRule.EmptyConversation, null, 'the request has no messages']);
    expect(check([sys()])).toEqual(['empty_conversation', 0, 'messages[0]: the request has no message after the system message']);
  });

  it('reports the violation at the lowest message index', () => {
    expect(check([human(), calls('c1'), human(), sys(), answer('zz')])?.[1]).toBe(1);
    expect(check([human(), answer('zz'), calls('c1')])?.[1]).toBe(1);
  });
});
