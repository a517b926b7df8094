import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { sha256Hex } from '../../../src/activities/sha256-hex';
import { usedToolCallIds, withUniqueToolCallIds } from '../../../src/activities/unique-tool-call-ids';

const tag = sha256Hex('run-1').slice(0, 8);
const response = (ids: Array<string | undefined>) =>
  new AIMessage({
    content: 'calling',
    id: 'msg-1',
    tool_calls: ids.map((id, i) => ({ id, name: 'read_file', args: { path: `f${i}` }, type: 'tool_call' as const })),
    additional_kwargs: { tool_calls: ids.map((id, i) => ({ id: id ?? '', type: 'function', function: { name: 'read_file', arguments: `{"path":"f${i}"}` } })) },
    usage_metadata: { input_tokens: 1, output_tokens: 2, total_tokens: 3 },
  });

describe('withUniqueToolCallIds', () => {
  it('leaves a response with fresh, distinct ids as it is (same instance)', () => {
    const ai = response(['a', 'b']);
    expect(withUniqueToolCallIds(ai, new Set(['c']), 'run-1', 0)).toBe(ai);
  });

  it('replaces empty, repeated and already used ids, keeping the first use of a repeated one', () => {
    const out = withUniqueToolCallIds(response(['dup', 'dup', '', 'old']), new Set(['old']), 'run-1', 2);
    expect(out.tool_calls?.map((c) => c.id)).toEqual(['dup', `call_${tag}_2_1`, `call_${tag}_2_2`, `call_${tag}_2_3`]);
    // The provider's raw metadata follows, so any converter pairs the same ids.
    expect((out.additional_kwargs.tool_calls as Array<{ id: string }>).map((c) => c.id)).toEqual(out.tool_calls?.map((c) => c.id));
    expect(out.tool_calls?.map((c) => c.args)).toEqual([{ path: 'f0' }, { path: 'f1' }, { path: 'f2' }, { path: 'f3' }]);
    expect(out.usage_metadata).toEqual({ input_tokens: 1, output_tokens: 2, total_tokens: 3 });
    expect(out.id).toBe('msg-1');
  });

  it('never reuses an id the thread holds, even one that looks like its own', () => {
    const out = withUniqueToolCallIds(response(['', '']), new Set([`call_${tag}_0_0`]), 'run-1', 0);
    expect(out.tool_calls?.map((c) => c.id)).toEqual([`call_${tag}_0_0_2`, `call_${tag}_0_1`]);
  });

  it('uses only letters, digits and underscores in the ids it makes (Anthropic accepts them)', () => {
    const out = withUniqueToolCallIds(response(['']), new Set(), 'run with spaces/and:colons', 7);
    expect(out.tool_calls?.[0]?.id).toMatch(/^call_[0-9a-f]{8}_7_0$/);
  });

  it('drops raw metadata that does not line up with the calls', () => {
    const ai = new AIMessage({ content: '', tool_calls: [{ id: '', name: 'ls', args: {}, type: 'tool_call' }], additional_kwargs: { tool_calls: [] } });
    expect(withUniqueToolCallIds(ai, new Set(), 'r', 0).additional_kwargs).not.toHaveProperty('tool_calls');
  });
});

describe('usedToolCallIds', () => {
  it('collects the ids of assistant calls in the thread', () => {
    const thread = [new HumanMessage('hi'), response(['a', 'b']), new ToolMessage({ content: 'x', tool_call_id: 'a' }), new AIMessage('done')];
    expect([...usedToolCallIds(thread)].sort()).toEqual(['a', 'b']);
  });
});
