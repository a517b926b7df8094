import { createHash } from 'node:crypto';
import { LoopDetectionConfigSchema } from '../../../src/config/schema';
import {
  canonicalJson,
  DEFAULT_THREAD_KEY,
  EMPTY_THREAD_LOOP_STATE,
  hashToolCalls,
  LOOP_CAPPED,
  LOOP_WARNING_NAME,
  MAX_PENDING_WARNINGS_PER_RUN,
  normalizeToolArgs,
  observeToolCalls,
  queueWarning,
  READ_FILE_LINE_BUCKET,
  REPEATED_CALLS_WARNING,
  repeatedCallsStopMessage,
  replayToolCallHistory,
  resolveThreadKey,
  stableToolKey,
  toolCallsSignature,
  toolFrequencyStopMessage,
  toolFrequencyWarning,
  toolFrequencyWindow,
  type LoopAction,
  type LoopLimits,
  type LoopToolCall,
  type ThreadLoopState,
} from '../../../src/middleware/loop-detection';

const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');
const limits = (o: Partial<LoopLimits> = {}): LoopLimits => ({ ...LoopDetectionConfigSchema.parse({}), ...o });

/** Feeds responses in order; returns each response's action kind/message and the final state. */
function run(responses: readonly (readonly LoopToolCall[])[], l: LoopLimits) {
  let state: ThreadLoopState = EMPTY_THREAD_LOOP_STATE;
  const actions: LoopAction[] = [];
  for (const calls of responses) {
    const r = observeToolCalls(state, calls, hashToolCalls(calls, md5), l);
    state = r.state;
    actions.push(r.action);
  }
  return { state, actions };
}
const none: LoopAction = { kind: 'none' };

describe('constants and texts', () => {
  it('pins the constants', () => {
    expect([MAX_PENDING_WARNINGS_PER_RUN, LOOP_WARNING_NAME, LOOP_CAPPED, DEFAULT_THREAD_KEY, READ_FILE_LINE_BUCKET]).toEqual([
      4, 'loop_warning', 'loop_capped', 'default', 200,
    ]);
  });

  it('pins the four texts', () => {
    expect(repeatedCallsStopMessage(limits())).toBe(
      '[FORCED STOP] Repeated tool calls exceeded the safety limit (5 identical tool-call sets within the last 20 ' +
        'tool-calling turns). Tool calls have been stopped; give your final answer now from the results you already have.',
    );
    expect(toolFrequencyStopMessage('bash', 50, 50)).toBe(
      '[FORCED STOP] Tool bash called 50 times — exceeded the per-tool safety limit (50). ' +
        'Tool calls have been stopped; give your final answer now from the results you already have.',
    );
    expect(REPEATED_CALLS_WARNING).toBe(
      '[LOOP DETECTED] You are repeating the same tool calls. Repeating them will not produce new information: ' +
        'use the results you already have, change your approach, or give your final answer.',
    );
    expect(toolFrequencyWarning('grep', 30)).toBe(
      '[LOOP DETECTED] You have called grep 30 times without producing a final answer. ' +
        'Consider whether more calls are needed: summarize what you have or give your final answer.',
    );
  });
});

describe('argument normalization and stable keys', () => {
  it('canonicalJson sorts keys at every level', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 0 }], c: null } })).toBe('{"a":{"c":null,"d":[2,{"y":0,"z":1}]},"b":1}');
  });

  it('normalizes records, JSON strings, absent and other values', () => {
    expect(normalizeToolArgs({ a: 1 })).toEqual({ args: { a: 1 }, fallback: null });
    expect(normalizeToolArgs('{"a":1}')).toEqual({ args: { a: 1 }, fallback: null });
    expect(normalizeToolArgs('[1, 2]')).toEqual({ args: {}, fallback: '[1,2]' });
    expect(normalizeToolArgs('not json')).toEqual({ args: {}, fallback: 'not json' });
    expect(normalizeToolArgs(undefined)).toEqual({ args: {}, fallback: null });
    expect(normalizeToolArgs(null)).toEqual({ args: {}, fallback: null });
    expect(normalizeToolArgs([1, 'a'])).toEqual({ args: {}, fallback: '[1,"a"]' });
    expect(normalizeToolArgs(7)).toEqual({ args: {}, fallback: '7' });
  });

  it('buckets read_file ranges by 200 lines, order-insensitive, with defaults for bad numbers', () => {
    const key = (args: unknown) => stableToolKey('read_file', args);
    expect(key({ path: '/a' })).toBe('/a:0-0');
    expect(key({ path: '/a', start_line: 1, end_line: 200 })).toBe('/a:0-0');
    expect(key({ path: '/a', start_line: 150, end_line: 201 })).toBe('/a:0-1');
    expect(key({ path: '/a', start_line: 201, end_line: 150 })).toBe('/a:0-1');
    expect(key({ path: '/a', start_line: 450 })).toBe('/a:2-2');
    expect(key({ path: '/a', start_line: '401', end_line: '600' })).toBe('/a:2-2');
    expect(key({ path: '/a', start_line: 'x', end_line: 'y' })).toBe('/a:0-0');
    expect(key({ path: '/a', start_line: 0, end_line: -5 })).toBe('/a:0-0');
    expect(key('{"path": "/b", "start_line": 1000}')).toBe('/b:4-4');
    expect(key('garbage')).toBe(':0-0');
  });

  it('keys write_file and str_replace on all arguments', () => {
    expect(stableToolKey('write_file', { path: '/a', content: 'x' })).toBe('{"content":"x","path":"/a"}');
    expect(stableToolKey('write_file', { content: 'x', path: '/a' })).toBe(stableToolKey('write_file', { path: '/a', content: 'x' }));
    expect(stableToolKey('str_replace', { path: '/a', old: '1', new: '2' })).toBe('{"new":"2","old":"1","path":"/a"}');
    expect(stableToolKey('write_file', 'raw text')).toBe('raw text');
  });

  it('keys other tools on the salient fields present, else the fallback, else all arguments', () => {
    expect(stableToolKey('bash', { command: 'ls', description: 'list' })).toBe('{"command":"ls"}');
    expect(stableToolKey('search', { query: 'q', url: 'u', limit: 3 })).toBe('{"query":"q","url":"u"}');
    expect(stableToolKey('grep', { pattern: 'p', glob: '*.ts', path: null })).toBe('{"glob":"*.ts","path":null,"pattern":"p"}');
    expect(stableToolKey('x', { cmd: 'a' })).toBe('{"cmd":"a"}');
    expect(stableToolKey('x', { a: 1 })).toBe('{"a":1}');
    expect(stableToolKey('x', '"str"')).toBe('"str"');
    expect(stableToolKey('x', undefined)).toBe('{}');
  });

  it('hashes the sorted multiset of name:key as md5, first 12 hex chars', () => {
    const a = { name: 'bash', args: { command: 'ls' } };
    const b = { name: 'read_file', args: { path: '/a', start_line: 10 } };
    const signature = '["bash:{\\"command\\":\\"ls\\"}","read_file:/a:0-0"]';
    expect(toolCallsSignature([b, a])).toBe(signature);
    expect(hashToolCalls([a, b], md5)).toBe(md5(signature).slice(0, 12));
    expect(hashToolCalls([b, a], md5)).toMatch(/^[0-9a-f]{12}$/);
    expect(hashToolCalls([a, a], md5)).not.toBe(hashToolCalls([a], md5));
    expect(hashToolCalls([{ name: 'read_file', args: { path: '/a', start_line: 199 } }], md5)).toBe(
      hashToolCalls([{ name: 'read_file', args: { path: '/a', start_line: 3 } }], md5),
    );
  });
});

describe('layer 1: identical call sets', () => {
  const same = [{ name: 'bash', args: { command: 'ls' } }];

  it('warns once at warn_threshold and stops at hard_limit (defaults 3 and 5)', () => {
    const { actions, state } = run([same, same, same, same, same], limits());
    expect(actions).toEqual([
      none,
      none,
      { kind: 'warn', message: REPEATED_CALLS_WARNING },
      none,
      { kind: 'stop', message: repeatedCallsStopMessage(limits()) },
    ]);
    // Layer 2 only counted the responses layer 1 was silent about.
    expect(state.toolNames).toEqual(['bash', 'bash', 'bash']);
  });

  it('trims to window_size and warns again once the hash left the window', () => {
    const l = limits({ window_size: 3, warn_threshold: 2, hard_limit: 3 });
    const other = (n: number) => [{ name: 'bash', args: { command: `c${n}` } }];
    const { actions, state } = run([same, same, other(1), other(2), other(3), same, same], l);
    expect(actions.map((a) => a.kind)).toEqual(['none', 'warn', 'none', 'none', 'none', 'none', 'warn']);
    expect(state.hashes).toHaveLength(3);
    expect(state.warnedHashes).toEqual([hashToolCalls(same, md5)]);
  });
});

describe('layer 2: per-tool frequency', () => {
  const grep = (n: number) => ({ name: 'grep', args: { pattern: `p${n}` } });

  it('uses a window of max(window_size, hard limits incl. overrides)', () => {
    expect(toolFrequencyWindow(limits())).toBe(50);
    expect(toolFrequencyWindow(limits({ window_size: 70 }))).toBe(70);
    expect(toolFrequencyWindow(limits({ tool_freq_overrides: { bash: { warn: 10, hard_limit: 90 } } }))).toBe(90);
  });

  it('warns once at tool_freq_warn and stops at tool_freq_hard_limit for varying arguments', () => {
    const l = limits({ tool_freq_warn: 3, tool_freq_hard_limit: 5 });
    const { actions } = run([1, 2, 3, 4, 5].map((n) => [grep(n)]), l);
    expect(actions).toEqual([
      none,
      none,
      { kind: 'warn', message: toolFrequencyWarning('grep', 3) },
      none,
      { kind: 'stop', message: toolFrequencyStopMessage('grep', 5, 5) },
    ]);
  });

  it('applies per-tool overrides and counts every call of a multi-call response', () => {
    const l = limits({ tool_freq_overrides: { grep: { warn: 2, hard_limit: 4 } } });
    const { actions } = run([[grep(1), grep(2), grep(3)], [grep(4), { name: 'ls', args: {} }]], l);
    expect(actions).toEqual([
      { kind: 'warn', message: toolFrequencyWarning('grep', 2) },
      { kind: 'stop', message: toolFrequencyStopMessage('grep', 4, 4) },
    ]);
  });

  it('warns about one tool per response and the other on a later response', () => {
    const l = limits({ tool_freq_warn: 1, tool_freq_hard_limit: 10 });
    const { actions, state } = run([[grep(1), { name: 'ls', args: { path: 'a' } }], [grep(2)]], l);
    expect(actions).toEqual([{ kind: 'warn', message: toolFrequencyWarning('grep', 1) }, none]);
    expect(state.warnedTools).toEqual(['grep']);
    const again = observeToolCalls(state, [{ name: 'ls', args: { path: 'b' } }], 'h', l);
    expect(again.action).toEqual({ kind: 'warn', message: toolFrequencyWarning('ls', 2) });
  });

  it('forgets the warning once the count decays below warn, so it can warn again', () => {
    const l = limits({ window_size: 4, warn_threshold: 10, hard_limit: 10, tool_freq_warn: 2, tool_freq_hard_limit: 4 });
    const other = (n: string) => [{ name: n, args: { path: n } }];
    const { actions } = run([[grep(1)], [grep(2)], other('x'), other('y'), other('z'), [grep(3)], [grep(4)]], l);
    expect(actions.map((a) => a.kind)).toEqual(['none', 'warn', 'none', 'none', 'none', 'none', 'warn']);
  });

  it('ignores calls without a name', () => {
    const { state } = run([[{ args: { path: 'a' } }, { name: '', args: {} }]], limits());
    expect(state.toolNames).toEqual([]);
  });
});

describe('pending warnings and thread keys', () => {
  it('dedupes and keeps the newest four', () => {
    let q: string[] = [];
    for (const m of ['a', 'b', 'a', 'c', 'd', 'e']) q = queueWarning(q, m);
    expect(q).toEqual(['a', 'c', 'd', 'e']);
  });

  it('uses a non-empty thread_id, else "default"', () => {
    expect([resolveThreadKey({ thread_id: 't1' }), resolveThreadKey({ thread_id: '' }), resolveThreadKey({ thread_id: null }), resolveThreadKey({})]).toEqual([
      't1', 'default', 'default', 'default',
    ]);
  });
});

describe('replayToolCallHistory (a resumed execution rebuilds its loop state)', () => {
  const call = { name: 'bash', args: { command: 'ls' } };
  const ai = (calls: LoopToolCall[]) => ({ type: 'ai', tool_calls: calls });

  it('equals observing each earlier tool-calling response in order; other messages count for nothing', () => {
    const l = limits();
    const history = [{ type: 'human' }, ai([call]), { type: 'tool' }, ai([]), ai([call]), { type: 'tool' }];
    let expected = EMPTY_THREAD_LOOP_STATE;
    for (let i = 0; i < 2; i++) expected = observeToolCalls(expected, [call], hashToolCalls([call], md5), l).state;
    expect(replayToolCallHistory(history, md5, l)).toEqual(expected);
  });

  it('an empty history is the empty state', () => {
    expect(replayToolCallHistory([{ type: 'human' }], md5, limits())).toEqual(EMPTY_THREAD_LOOP_STATE);
  });

  it('repeats before the resume still count: the next repeat reaches the hard limit', () => {
    const l = limits({ warn_threshold: 2, hard_limit: 3 });
    const replayed = replayToolCallHistory([ai([call]), ai([call])], md5, l);
    expect(observeToolCalls(replayed, [call], hashToolCalls([call], md5), l).action.kind).toBe('stop');
  });
});
