import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { finishedOutcome, llmErrorFallback, turnCappedOutcome } from '../../../src/activities/subagent-outcome';

const fallback = (content: string, detail?: string) =>
  new AIMessage({ content, additional_kwargs: { error_fallback: true, error_type: 'Error', error_reason: 'busy', ...(detail ? { error_detail: detail } : {}) } });

describe('llmErrorFallback (SPEC §2.8)', () => {
  test('only a marker on the LAST assistant message counts', () => {
    expect(llmErrorFallback([fallback('LLM request failed: boom'), new AIMessage('recovered')])).toBeNull();
    expect(llmErrorFallback([new AIMessage('Error: it looks like an error but is prose')])).toBeNull();
    expect(llmErrorFallback([new HumanMessage('task'), fallback('LLM request failed: boom', 'boom')])).toBe('LLM request failed: boom');
  });

  test('keeps the provider message next to a user-facing text, falls back to the detail, then a generic text', () => {
    expect(llmErrorFallback([fallback('The provider is busy.', '503 upstream unavailable')])).toBe('The provider is busy. (provider said: 503 upstream unavailable)');
    expect(llmErrorFallback([fallback('  ', '429 slow down')])).toBe('429 slow down');
    expect(llmErrorFallback([fallback('')])).toBe('LLM request failed');
  });

  test('a marker that is not exactly true is ignored', () => {
    expect(llmErrorFallback([new AIMessage({ content: 'x', additional_kwargs: { error_fallback: 'true' } })])).toBeNull();
  });
});

describe('finishedOutcome (SPEC §2.6 step 8)', () => {
  test('completed with the final text and the guard reason', () => {
    expect(finishedOutcome([new HumanMessage('t'), new AIMessage('answer')], 'token_capped')).toEqual({
      status: 'completed',
      stopReason: 'token_capped',
      error: null,
      resultText: 'answer',
    });
  });

  test('a marked fallback fails the task, without a stop reason', () => {
    expect(finishedOutcome([fallback('LLM request failed: 401', '401')], 'loop_capped')).toEqual({
      status: 'failed',
      stopReason: null,
      error: 'LLM request failed: 401',
      resultText: null,
    });
  });
});

describe('turnCappedOutcome (SPEC §2.6 step 9)', () => {
  const toolTurn = new AIMessage({ content: '', tool_calls: [{ id: 'c1', name: 'bash', args: {} }] });

  test('a partial answer in the last assistant message survives as completed + turn_capped', () => {
    expect(turnCappedOutcome([new AIMessage({ content: 'half done', tool_calls: [{ id: 'c1', name: 'bash', args: {} }] }), new ToolMessage({ content: 'ok', tool_call_id: 'c1' })], 5, null)).toEqual({
      status: 'completed',
      stopReason: 'turn_capped',
      error: null,
      resultText: 'half done',
    });
  });

  test('no text in the last assistant message: failed + turn_capped with Reached max_turns', () => {
    expect(turnCappedOutcome([new AIMessage('earlier text'), toolTurn, new ToolMessage({ content: 'ok', tool_call_id: 'c1' })], 5, null)).toEqual({
      status: 'failed',
      stopReason: 'turn_capped',
      error: 'Reached max_turns=5',
      resultText: null,
    });
  });

  test("a guard's own reason wins over turn_capped", () => {
    expect(turnCappedOutcome([toolTurn], 3, 'loop_capped')).toMatchObject({ status: 'failed', stopReason: 'loop_capped' });
  });
});
