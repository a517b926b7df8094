import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type UsageMetadata } from '@langchain/core/messages';
import { NO_RESPONSE_SENTINEL, extractFinalResult } from '../../../src/activities/final-result';
import { usageOfMessage } from '../../../src/contracts';

const usage = (input: number, output: number, total: number): UsageMetadata => ({
  input_tokens: input,
  output_tokens: output,
  total_tokens: total,
});
const aiWithUsage = (meta: UsageMetadata | undefined, id?: string): AIMessage =>
  new AIMessage({ content: 'x', id, usage_metadata: meta });

describe('usageOfMessage (SPEC §5)', () => {
  it('absent usage → null', () => {
    expect(usageOfMessage(new AIMessage('no usage'))).toBeNull();
  });

  it('all-zero usage → null (never synthesized zeros)', () => {
    expect(usageOfMessage(aiWithUsage(usage(0, 0, 0)))).toBeNull();
  });

  it('keeps reported counts', () => {
    expect(usageOfMessage(aiWithUsage(usage(12, 3, 15)))).toEqual({ input_tokens: 12, output_tokens: 3, total_tokens: 15 });
  });

  it('keeps a reported total that differs from input + output', () => {
    expect(usageOfMessage(aiWithUsage(usage(10, 5, 20)))).toEqual({ input_tokens: 10, output_tokens: 5, total_tokens: 20 });
  });

  it('defaults a zero total to input + output', () => {
    expect(usageOfMessage(aiWithUsage(usage(7, 4, 0)))).toEqual({ input_tokens: 7, output_tokens: 4, total_tokens: 11 });
  });

  it('a total alone counts as usage', () => {
    expect(usageOfMessage(aiWithUsage(usage(0, 0, 9)))).toEqual({ input_tokens: 0, output_tokens: 0, total_tokens: 9 });
  });
});

describe('extractFinalResult (SPEC §2.7)', () => {
  it('uses the literal sentinel', () => {
    expect(NO_RESPONSE_SENTINEL).toBe('No response generated');
  });

  it('no messages → sentinel', () => {
    expect(extractFinalResult([])).toBe('No response generated');
  });

  it('takes the last AI message, even when tool output follows it', () => {
    const messages = [
      new HumanMessage('Task'),
      new AIMessage('first answer'),
      new AIMessage('final answer'),
      new ToolMessage({ content: 'late tool output', tool_call_id: 't1', name: 'ls' }),
    ];
    expect(extractFinalResult(messages)).toBe('final answer');
  });

  it('joins list content text blocks with newlines, skipping empty and non-text blocks', () => {
    const message = new AIMessage({
      content: [
        { type: 'text', text: 'Summary' },
        { type: 'text', text: '' },
        { type: 'image_url', image_url: 'data:image/png;base64,AAAA' },
        { type: 'text', text: '- finding 1' },
      ],
    });
    expect(extractFinalResult([new HumanMessage('Task'), message])).toBe('Summary\n- finding 1');
  });

  it('an empty last AI message gives the sentinel (earlier AI text is not used)', () => {
    const messages = [new HumanMessage('Task'), new AIMessage('earlier'), new AIMessage('')];
    expect(extractFinalResult(messages)).toBe('No response generated');
  });

  it('an AI message with only non-text blocks gives the sentinel', () => {
    const message = new AIMessage({ content: [{ type: 'image_url', image_url: 'data:image/png;base64,AAAA' }] });
    expect(extractFinalResult([message])).toBe('No response generated');
  });

  it('without any AI message falls back to the last message of any type', () => {
    expect(extractFinalResult([new SystemMessage('sys'), new HumanMessage('Task')])).toBe('Task');
    expect(extractFinalResult([new HumanMessage('Task'), new ToolMessage({ content: 'tool says', tool_call_id: 't1' })])).toBe('tool says');
  });

  it('falls back to the sentinel when the last message is empty', () => {
    expect(extractFinalResult([new HumanMessage('Task'), new HumanMessage('')])).toBe('No response generated');
  });

  it('strips the result', () => {
    expect(extractFinalResult([new AIMessage('  answer \n')])).toBe('answer');
  });
});

