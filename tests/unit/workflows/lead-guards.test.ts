import type { LeadLoopLimits, LeadModelTurn, LeadTokenBudget, ToolCall } from '../../../src/contracts';
import { decideLeadGuards, INITIAL_LEAD_GUARDS, type LeadGuardLimits, type LeadGuardState } from '../../../src/workflows/lead-guards';
import { textHash } from '../../../src/workflows/text-hash';
import { REPEATED_CALLS_WARNING } from '../../../src/middleware';

const call = (path: string): ToolCall => ({ id: `c-${path}`, name: 'ls', args: { path }, argsTruncated: false });
const step = (overrides: Partial<Pick<LeadModelTurn, 'errorFallback' | 'finishReason' | 'toolCalls'>> = {}) => ({
  errorFallback: null,
  finishReason: 'tool_calls',
  toolCalls: [call('.')],
  ...overrides,
});
const loop: LeadLoopLimits = { warn_threshold: 2, hard_limit: 3, window_size: 20, tool_freq_warn: 30, tool_freq_hard_limit: 50, tool_freq_overrides: {} };
const budget: LeadTokenBudget = { enabled: true, max_tokens: 1000, max_input_tokens: null, max_output_tokens: null, warn_threshold: 0.7, hard_stop_threshold: 1 };
const none: LeadGuardLimits = { tokenBudget: null, loop: null };
const usage = (total: number) => ({ input_tokens: total, output_tokens: 0, total_tokens: total });

describe('decideLeadGuards', () => {
  it('a final model failure fails the run with the provider message', () => {
    expect(decideLeadGuards(INITIAL_LEAD_GUARDS, step({ errorFallback: { reason: 'generic', detail: '400 bad' }, toolCalls: [] }), null, none).verdict).toEqual({
      kind: 'failed',
      error: '400 bad',
    });
  });

  it.each([
    ['length', 'model_length_capped'],
    ['max_tokens', 'model_length_capped'],
    ['content_filter', 'safety_capped'],
    ['refusal', 'safety_capped'],
  ])('finish reason %s stops the run: %s (with or without tool calls)', (finishReason, stopReason) => {
    for (const toolCalls of [[], [call('.')]]) {
      expect(decideLeadGuards(INITIAL_LEAD_GUARDS, step({ finishReason, toolCalls }), null, none).verdict).toEqual({ kind: 'stop', stopReason, note: null });
    }
  });

  it('a final answer passes every guard untouched', () => {
    const decided = decideLeadGuards(INITIAL_LEAD_GUARDS, step({ finishReason: 'stop', toolCalls: [] }), usage(5000), { tokenBudget: budget, loop });
    expect(decided).toEqual({ state: INITIAL_LEAD_GUARDS, verdict: { kind: 'continue' } });
  });

  it('the token budget warns once at its threshold and stops at the hard limit', () => {
    let state: LeadGuardState = INITIAL_LEAD_GUARDS;
    const limits = { tokenBudget: budget, loop: null };
    state = decideLeadGuards(state, step(), usage(500), limits).state;
    expect(state.pending).toEqual([]);
    state = decideLeadGuards(state, step(), usage(700), limits).state;
    expect(state.pending).toEqual([{ name: 'budget_warning', text: expect.stringContaining('[TOKEN BUDGET WARNING] You have used 700 of your 1,000') }]);
    const again = decideLeadGuards({ ...state, pending: [] }, step(), usage(800), limits);
    expect(again.state.pending).toEqual([]);
    const stop = decideLeadGuards(again.state, step(), usage(1000), limits);
    expect(stop.verdict).toEqual({ kind: 'stop', stopReason: 'token_capped', note: expect.stringContaining('[TOKEN BUDGET EXCEEDED]') });
  });

  it('no reported usage never trips the budget', () => {
    expect(decideLeadGuards(INITIAL_LEAD_GUARDS, step(), null, { tokenBudget: budget, loop: null }).verdict).toEqual({ kind: 'continue' });
  });

  it('loop detection warns at the threshold and stops at the hard limit; different calls reset nothing but do not count', () => {
    const limits = { tokenBudget: null, loop };
    let state: LeadGuardState = INITIAL_LEAD_GUARDS;
    state = decideLeadGuards(state, step(), null, limits).state;
    state = decideLeadGuards(state, step({ toolCalls: [call('other')] }), null, limits).state;
    expect(state.pending).toEqual([]);
    const warned = decideLeadGuards(state, step(), null, limits);
    expect(warned.state.pending).toEqual([{ name: 'loop_warning', text: REPEATED_CALLS_WARNING }]);
    expect(warned.verdict).toEqual({ kind: 'continue' });
    const stopped = decideLeadGuards(warned.state, step(), null, limits);
    expect(stopped.verdict).toEqual({ kind: 'stop', stopReason: 'loop_capped', note: expect.stringContaining('[FORCED STOP]') });
  });

  it('the budget stop comes before the loop, and both warnings can queue on one response', () => {
    const limits = { tokenBudget: budget, loop: { ...loop, warn_threshold: 1 } };
    const both = decideLeadGuards(INITIAL_LEAD_GUARDS, step(), usage(750), limits);
    expect(both.state.pending.map((w) => w.name)).toEqual(['budget_warning', 'loop_warning']);
    expect(decideLeadGuards(both.state, step(), usage(1200), limits).verdict).toMatchObject({ stopReason: 'token_capped' });
  });
});

describe('textHash', () => {
  it('is deterministic, 14 hex digits, and tells near strings apart', () => {
    expect(textHash('ls:.')).toBe(textHash('ls:.'));
    expect(textHash('ls:.')).toMatch(/^[0-9a-f]{14}$/);
    expect(textHash('ls:.')).not.toBe(textHash('ls:..'));
    expect(textHash('')).toMatch(/^[0-9a-f]{14}$/);
  });
});
