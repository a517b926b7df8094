import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { AppConfigSchema, TokenBudgetConfigSchema } from '../../../src/config/schema';
import {
  appendNote,
  BUDGET_WARNING_NAME,
  capAiMessage,
  decideTokenBudget,
  EMPTY_RUN_BUDGET,
  GUARD_MAX_TRACKED_RUNS,
  highestBudgetUse,
  invocationKeyer,
  markMessagesSeen,
  accountUsage,
  resolveRunKey,
  TOKEN_CAPPED,
  tokenBudgetExceededMessage,
  tokenBudgetWarningMessage,
  withThousands,
  type TokenBudgetLimits,
} from '../../../src/middleware/token-budget';
import { defaultSubagentTokenBudget, resolveSubagentTokenBudget } from '../../../src/middleware/agent/token-budget-middleware';

const ai = (id: string, input: number, output: number, total = input + output) =>
  new AIMessage({ id, content: '', usage_metadata: { input_tokens: input, output_tokens: output, total_tokens: total } });

const LIMITS: TokenBudgetLimits = {
  enabled: true,
  max_tokens: 1000,
  max_input_tokens: null,
  max_output_tokens: null,
  warn_threshold: 0.7,
  hard_stop_threshold: 1.0,
};

describe('constants and number formatting', () => {
  it('pins the run cap, warning name and stop reason', () => {
    expect([GUARD_MAX_TRACKED_RUNS, BUDGET_WARNING_NAME, TOKEN_CAPPED]).toEqual([1000, 'budget_warning', 'token_capped']);
  });

  it('groups thousands with commas and rounds to an integer', () => {
    expect([0, 999, 1000, 12_345, 1_050, 2_000_000, 1_234_567.6].map(withThousands)).toEqual([
      '0', '999', '1,000', '12,345', '1,050', '2,000,000', '1,234,568',
    ]);
  });
});

describe('run keys (presence-based)', () => {
  const fallback = () => 'fallback';
  it('uses run_id whenever the key is present, null included', () => {
    expect(resolveRunKey({ run_id: 'r1' }, fallback)).toBe('r1');
    expect(resolveRunKey({ run_id: null }, fallback)).toBeNull();
    expect(resolveRunKey({ run_id: undefined }, fallback)).toBeNull();
  });

  it('falls back only when the key is absent', () => {
    expect(resolveRunKey({}, fallback)).toBe('fallback');
    expect(resolveRunKey({ thread_id: 't' }, fallback)).toBe('fallback');
  });

  it('gives one fallback key per stream writer (one per invocation)', () => {
    const keyOf = invocationKeyer('tb');
    const w1 = () => undefined;
    const w2 = () => undefined;
    expect([keyOf({ writer: w1 }), keyOf({ writer: w2 }), keyOf({ writer: w1 })]).toEqual([
      'tb:invocation-1', 'tb:invocation-2', 'tb:invocation-1',
    ]);
    expect(keyOf({})).toBe('tb:shared');
  });
});

describe('usage accounting', () => {
  it('counts growth per message id; total = input + output deltas, not total_tokens', () => {
    let s = accountUsage(EMPTY_RUN_BUDGET, [new HumanMessage('hi'), ai('a', 100, 20, 999)]);
    expect(s.usage).toEqual({ input: 100, output: 20, total: 120 });
    // Same message seen again: nothing new. A grown message counts only its growth.
    s = accountUsage(s, [ai('a', 100, 20), ai('b', 50, 5)]);
    expect(s.usage).toEqual({ input: 150, output: 25, total: 175 });
    s = accountUsage(s, [ai('a', 130, 20), ai('b', 40, 5)]);
    expect(s.usage).toEqual({ input: 180, output: 25, total: 205 });
  });

  it('ignores messages without id, non-AI messages and missing usage', () => {
    const noId = new AIMessage({ content: '', usage_metadata: { input_tokens: 5, output_tokens: 5, total_tokens: 10 } });
    const s = accountUsage(EMPTY_RUN_BUDGET, [noId, new HumanMessage({ id: 'h', content: 'x' }), new AIMessage({ id: 'c', content: '' })]);
    expect(s.usage).toEqual({ input: 0, output: 0, total: 0 });
  });

  it('does not count messages marked seen before the run', () => {
    const prior = [ai('old', 900, 90)];
    const seen = markMessagesSeen(EMPTY_RUN_BUDGET, prior);
    expect(seen.usage).toEqual({ input: 0, output: 0, total: 0 });
    expect(accountUsage(seen, [...prior, ai('new', 10, 1)]).usage).toEqual({ input: 10, output: 1, total: 11 });
  });
});

describe('highestBudgetUse', () => {
  it('uses the total budget alone when no input/output limits are set', () => {
    expect(highestBudgetUse({ input: 600, output: 100, total: 700 }, LIMITS)).toEqual({ reason: 'total', used: 700, budget: 1000, fraction: 0.7 });
  });

  it('picks the highest fraction; ties keep total, then input', () => {
    const limits = { ...LIMITS, max_input_tokens: 500, max_output_tokens: 100 };
    expect(highestBudgetUse({ input: 400, output: 10, total: 410 }, limits).reason).toBe('input');
    expect(highestBudgetUse({ input: 100, output: 90, total: 190 }, limits).reason).toBe('output');
    expect(highestBudgetUse({ input: 250, output: 50, total: 500 }, { ...limits, max_output_tokens: 200 }).reason).toBe('total');
    expect(highestBudgetUse({ input: 300, output: 60, total: 360 }, { ...limits, max_input_tokens: 500, max_output_tokens: 100 }).reason).toBe('input');
  });
});

describe('texts', () => {
  it('pins the exceeded and warning texts with thousands separators and reason words', () => {
    expect(tokenBudgetExceededMessage({ reason: 'total', used: 2_000_123, budget: 2_000_000, fraction: 1.0000615 })).toBe(
      '[TOKEN BUDGET EXCEEDED] Your total token usage (2,000,123) has exceeded the safety limit (2,000,000). ' +
        'Tool calls have been stopped; give your final answer now from the information you already have.',
    );
    expect(tokenBudgetWarningMessage({ reason: 'input', used: 1_400_000, budget: 2_000_000, fraction: 0.7 })).toBe(
      '[TOKEN BUDGET WARNING] You have used 1,400,000 of your 2,000,000 input token budget (70%). ' +
        'Start wrapping up: avoid new exploration, finish the essential steps and give your final answer soon.',
    );
    expect(tokenBudgetWarningMessage({ reason: 'output', used: 855, budget: 1000, fraction: 0.855 })).toContain('output token budget (86%)');
  });
});

describe('decideTokenBudget', () => {
  it('changes nothing when disabled, empty, or the last message is not an AI message', () => {
    for (const [messages, limits] of [
      [[ai('a', 2000, 0)], { ...LIMITS, enabled: false }],
      [[], LIMITS],
      [[ai('a', 2000, 0), new HumanMessage('x')], LIMITS],
    ] as const) {
      const r = decideTokenBudget(EMPTY_RUN_BUDGET, messages, limits);
      expect(r.state).toBe(EMPTY_RUN_BUDGET);
      expect(r.action).toEqual({ kind: 'none' });
    }
  });

  it('does nothing while usage is zero', () => {
    expect(decideTokenBudget(EMPTY_RUN_BUDGET, [new AIMessage({ id: 'a', content: '' })], LIMITS).action).toEqual({ kind: 'none' });
  });

  it('warns once at exactly warn_threshold, queues it, and stays quiet until the hard stop', () => {
    const r1 = decideTokenBudget(EMPTY_RUN_BUDGET, [ai('a', 600, 99)], LIMITS);
    expect(r1.action).toEqual({ kind: 'none' });
    const r2 = decideTokenBudget(r1.state, [ai('a', 600, 99), ai('b', 1, 0)], LIMITS);
    const warning = tokenBudgetWarningMessage({ reason: 'total', used: 700, budget: 1000, fraction: 0.7 });
    expect(r2.action).toEqual({ kind: 'warn', message: warning });
    expect(r2.state).toMatchObject({ warned: true, pending: [warning], usage: { input: 601, output: 99, total: 700 } });
    const r3 = decideTokenBudget(r2.state, [ai('a', 600, 99), ai('b', 1, 0), ai('c', 250, 0)], LIMITS);
    expect(r3.action).toEqual({ kind: 'none' });
    expect(r3.state.pending).toEqual([warning]);
    const r4 = decideTokenBudget(r3.state, [ai('c', 300, 0)], LIMITS);
    expect(r4.action).toEqual({
      kind: 'stop',
      message: tokenBudgetExceededMessage({ reason: 'total', used: 1000, budget: 1000, fraction: 1 }),
    });
  });

  it('hard stops on the input or output budget with that reason word', () => {
    const input = decideTokenBudget(EMPTY_RUN_BUDGET, [ai('a', 100, 1)], { ...LIMITS, max_input_tokens: 100 });
    expect(input.action.kind === 'stop' && input.action.message).toContain('Your input token usage (100) has exceeded the safety limit (100)');
    const output = decideTokenBudget(EMPTY_RUN_BUDGET, [ai('a', 1, 80)], { ...LIMITS, max_output_tokens: 100, warn_threshold: 0.8 });
    expect(output.action.kind === 'warn' && output.action.message).toContain('You have used 80 of your 100 output token budget (80%)');
  });
});

describe('appendNote and capAiMessage', () => {
  it('appends after a blank line for every content shape', () => {
    expect(appendNote(undefined, 'N')).toBe('N');
    expect(appendNote(null, 'N')).toBe('N');
    expect(appendNote('', 'N')).toBe('\n\nN');
    expect(appendNote('done', 'N')).toBe('done\n\nN');
    expect(appendNote(42, 'N')).toBe('42\n\nN');
    const blocks = [{ type: 'text', text: 'a' }];
    expect(appendNote(blocks, 'N')).toEqual([{ type: 'text', text: 'a' }, { type: 'text', text: '\n\nN' }]);
    expect(blocks).toEqual([{ type: 'text', text: 'a' }]);
  });

  it('strips parsed and raw tool calls and turns finish_reason tool_calls into stop', () => {
    const message = {
      content: 'x',
      additional_kwargs: { tool_calls: [{ id: '1' }], function_call: { name: 'f' }, other: 1 },
      response_metadata: { finish_reason: 'tool_calls', model_name: 'm' },
    };
    expect(capAiMessage(message, 'N')).toEqual({
      content: 'x\n\nN',
      tool_calls: [],
      additional_kwargs: { other: 1 },
      response_metadata: { finish_reason: 'stop', model_name: 'm' },
    });
    expect(message.additional_kwargs.tool_calls).toEqual([{ id: '1' }]);
    expect(capAiMessage({ content: '', response_metadata: { finish_reason: 'length' } }, 'N').response_metadata).toEqual({ finish_reason: 'length' });
  });
});

describe('subagent token budget (SPEC §1.3 get_token_budget_for)', () => {
  const defaults = { enabled: true, max_input_tokens: null, max_output_tokens: null, warn_threshold: 0.7, hard_stop_threshold: 1 };

  it('defaults to 2,000,000, or 1,000,000 with summarization on', () => {
    expect(defaultSubagentTokenBudget(false)).toEqual({ ...defaults, max_tokens: 2_000_000 });
    expect(defaultSubagentTokenBudget(true)).toEqual({ ...defaults, max_tokens: 1_000_000 });
  });

  it('prefers the per-agent override, then an explicit global budget, then the default', () => {
    const explicit = TokenBudgetConfigSchema.parse({ enabled: true, max_tokens: 50_000 });
    const perAgent = TokenBudgetConfigSchema.parse({ enabled: true, max_tokens: 7_000 });
    const base = AppConfigSchema.parse({ summarization: { enabled: true } });
    expect(resolveSubagentTokenBudget(base, 'bash').max_tokens).toBe(1_000_000);
    const global = AppConfigSchema.parse({ summarization: { enabled: true }, subagents: { token_budget: explicit } });
    expect(resolveSubagentTokenBudget(global, 'bash')).toEqual(explicit);
    const agent = AppConfigSchema.parse({ subagents: { token_budget: explicit, agents: { bash: { token_budget: perAgent } } } });
    expect(resolveSubagentTokenBudget(agent, 'bash')).toEqual(perAgent);
    expect(resolveSubagentTokenBudget(agent, 'general-purpose')).toEqual(explicit);
    expect(resolveSubagentTokenBudget(base, 'toString').max_tokens).toBe(1_000_000);
  });
});
