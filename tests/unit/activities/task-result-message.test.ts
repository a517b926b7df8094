import { createHash } from 'node:crypto';
import type { StopReason, WireStatus } from '../../../src/contracts';
import { sha256Hex } from '../../../src/activities/sha256-hex';
import {
  SUBAGENT_KWARGS,
  formatSubagentResultMessage,
  makeSubagentAdditionalKwargs,
  normalizeTokenUsage,
} from '../../../src/activities/task-result-message';

const SHA_ABC = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';
const sha = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

describe('SUBAGENT_KWARGS (SPEC §3.2)', () => {
  it('uses the wire key names', () => {
    expect(SUBAGENT_KWARGS).toEqual({
      status: 'subagent_status',
      stopReason: 'subagent_stop_reason',
      error: 'subagent_error',
      resultBrief: 'subagent_result_brief',
      resultSha256: 'subagent_result_sha256',
      modelName: 'subagent_model_name',
      tokenUsage: 'subagent_token_usage',
    });
  });
});

describe('formatSubagentResultMessage (SPEC §3.5 table)', () => {
  describe('completed', () => {
    it('plain', () => {
      expect(formatSubagentResultMessage({ status: 'completed', result: 'All done.' })).toEqual({
        content: 'Task Succeeded. Result: All done.',
        metadataError: null,
      });
    });

    it('null or missing result renders as empty', () => {
      expect(formatSubagentResultMessage({ status: 'completed', result: null })).toEqual({
        content: 'Task Succeeded. Result: ',
        metadataError: null,
      });
      expect(formatSubagentResultMessage({ status: 'completed' }).content).toBe('Task Succeeded. Result: ');
    });

    it.each([
      ['token_capped', 'token budget'],
      ['turn_capped', 'turn budget'],
      ['loop_capped', 'repeated tool-call loop'],
    ] as const)('capped by %s', (stopReason, label) => {
      expect(formatSubagentResultMessage({ status: 'completed', result: 'partial', stopReason })).toEqual({
        content: `Task Succeeded (capped: ${label}). Result: partial`,
        metadataError: null,
      });
    });

    it('ignores an error for a completed task', () => {
      expect(formatSubagentResultMessage({ status: 'completed', result: 'r', error: 'oops' })).toEqual({
        content: 'Task Succeeded. Result: r',
        metadataError: null,
      });
    });

    it('keeps the result text verbatim (not stripped)', () => {
      expect(formatSubagentResultMessage({ status: 'completed', result: '  spaced\n' }).content).toBe('Task Succeeded. Result:   spaced\n');
    });
  });

  describe('cancelled', () => {
    it.each([
      ['no error', undefined],
      ['null error', null],
      ['blank error', '  \n '],
      ['the default text', 'Task cancelled by user.'],
      ['the default text padded', '  Task cancelled by user.\n'],
    ])('%s → default text in both', (_label, error) => {
      expect(formatSubagentResultMessage({ status: 'cancelled', error })).toEqual({
        content: 'Task cancelled by user.',
        metadataError: 'Task cancelled by user.',
      });
    });

    it('with detail', () => {
      expect(formatSubagentResultMessage({ status: 'cancelled', error: '  Cancelled by user  ' })).toEqual({
        content: 'Task cancelled by user. Error: Cancelled by user',
        metadataError: 'Cancelled by user',
      });
    });

    it('ignores the stop reason in the text', () => {
      expect(formatSubagentResultMessage({ status: 'cancelled', stopReason: 'token_capped' })).toEqual({
        content: 'Task cancelled by user.',
        metadataError: 'Task cancelled by user.',
      });
    });
  });

  describe('timed_out', () => {
    it.each([
      ['no error', undefined],
      ['null error', null],
      ['empty error', ''],
      ['the default text', 'Task timed out.'],
      ['the default text padded', ' Task timed out. '],
    ])('%s → default text in both', (_label, error) => {
      expect(formatSubagentResultMessage({ status: 'timed_out', error })).toEqual({
        content: 'Task timed out.',
        metadataError: 'Task timed out.',
      });
    });

    it('with detail', () => {
      expect(formatSubagentResultMessage({ status: 'timed_out', error: 'Execution timed out after 900 seconds' })).toEqual({
        content: 'Task timed out. Error: Execution timed out after 900 seconds',
        metadataError: 'Execution timed out after 900 seconds',
      });
    });

    it('ignores the stop reason in the text', () => {
      expect(formatSubagentResultMessage({ status: 'timed_out', error: 'x', stopReason: 'loop_capped' }).content).toBe(
        'Task timed out. Error: x',
      );
    });
  });

  describe('polling_timed_out', () => {
    it('defaults to "Task polling timed out."', () => {
      expect(formatSubagentResultMessage({ status: 'polling_timed_out' })).toEqual({
        content: 'Task polling timed out.',
        metadataError: 'Task polling timed out.',
      });
      expect(formatSubagentResultMessage({ status: 'polling_timed_out', error: '   ' }).content).toBe('Task polling timed out.');
    });

    it('uses the detail verbatim (stripped), without a prefix', () => {
      const detail = 'Task polling timed out after 30 minutes. This may indicate the background task is stuck. Status: running';
      expect(formatSubagentResultMessage({ status: 'polling_timed_out', error: `${detail}\n` })).toEqual({
        content: detail,
        metadataError: detail,
      });
    });
  });

  describe('failed', () => {
    it.each([
      ['no error', undefined],
      ['null error', null],
      ['blank error', ' '],
    ])('%s → "Task failed." in both', (_label, error) => {
      expect(formatSubagentResultMessage({ status: 'failed', error })).toEqual({
        content: 'Task failed.',
        metadataError: 'Task failed.',
      });
    });

    it('with detail', () => {
      expect(formatSubagentResultMessage({ status: 'failed', error: ' boom ' })).toEqual({
        content: 'Task failed. Error: boom',
        metadataError: 'boom',
      });
    });

    it('capped, no detail: label in content, plain default in metadata', () => {
      expect(formatSubagentResultMessage({ status: 'failed', stopReason: 'turn_capped' })).toEqual({
        content: 'Task failed (capped: turn budget).',
        metadataError: 'Task failed.',
      });
    });

    it('capped, with detail', () => {
      expect(formatSubagentResultMessage({ status: 'failed', stopReason: 'turn_capped', error: 'Reached max_turns=60' })).toEqual({
        content: 'Task failed (capped: turn budget). Error: Reached max_turns=60',
        metadataError: 'Reached max_turns=60',
      });
    });

    it('capped by the loop guard', () => {
      expect(formatSubagentResultMessage({ status: 'failed', stopReason: 'loop_capped', error: 'stuck' }).content).toBe(
        'Task failed (capped: repeated tool-call loop). Error: stuck',
      );
    });

    it('ignores a result', () => {
      expect(formatSubagentResultMessage({ status: 'failed', result: 'partial', error: 'e' }).content).toBe('Task failed. Error: e');
    });
  });

  it('throws on an unknown status', () => {
    expect(() => formatSubagentResultMessage({ status: 'max_turns_reached' as WireStatus })).toThrow(
      'invalid subagent status max_turns_reached',
    );
  });
});

/** What §3.6 stamps on the terminal ToolMessage: content from the status, kwargs from metadataError. */
function terminalMessage(
  status: WireStatus,
  fields: { result?: string | null; error?: string | null; stopReason?: StopReason | null },
): { content: string; kwargs: Record<string, unknown> } {
  const { content, metadataError } = formatSubagentResultMessage({ status, ...fields });
  const kwargs = makeSubagentAdditionalKwargs(status, { result: fields.result, error: metadataError, stopReason: fields.stopReason });
  return { content, kwargs };
}

describe('terminal ToolMessage pins (SPEC §3.6)', () => {
  it('failed(error=None)', () => {
    expect(terminalMessage('failed', { error: null })).toEqual({
      content: 'Task failed.',
      kwargs: { subagent_status: 'failed', subagent_error: 'Task failed.' },
    });
  });

  it('cancelled(None)', () => {
    expect(terminalMessage('cancelled', { error: null })).toEqual({
      content: 'Task cancelled by user.',
      kwargs: { subagent_status: 'cancelled', subagent_error: 'Task cancelled by user.' },
    });
  });

  it('timed_out("")', () => {
    expect(terminalMessage('timed_out', { error: '' })).toEqual({
      content: 'Task timed out.',
      kwargs: { subagent_status: 'timed_out', subagent_error: 'Task timed out.' },
    });
  });

  it('completed + token_capped', () => {
    expect(terminalMessage('completed', { result: 'investigated 3 of 5 sources', stopReason: 'token_capped' })).toEqual({
      content: 'Task Succeeded (capped: token budget). Result: investigated 3 of 5 sources',
      kwargs: {
        subagent_status: 'completed',
        subagent_result_brief: 'investigated 3 of 5 sources',
        subagent_result_sha256: '0d4594b7056ca51cfc6dcea470e30e292650e34406b0861489cd4d60b3bd888f',
        subagent_stop_reason: 'token_capped',
      },
    });
  });
});

describe('sha256Hex', () => {
  it('is lowercase hex sha256 of the utf-8 bytes', () => {
    expect(sha256Hex('abc')).toBe(SHA_ABC);
    expect(sha256Hex('héllo ✓')).toBe('5657cdef8a85a584e0e961e6f8247cf5d3f8ed21496ed6fdbcfd43a761e94245');
    expect(sha256Hex('')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('makeSubagentAdditionalKwargs (SPEC §3.3)', () => {
  it('always carries the status, nothing else when nothing is known', () => {
    expect(makeSubagentAdditionalKwargs('failed', {})).toEqual({ subagent_status: 'failed' });
    expect(makeSubagentAdditionalKwargs('completed', {})).toEqual({ subagent_status: 'completed' });
    expect(makeSubagentAdditionalKwargs('polling_timed_out', { error: null, result: null, stopReason: null, modelName: null })).toEqual({
      subagent_status: 'polling_timed_out',
    });
  });

  it('completed: brief and sha256 of the result', () => {
    expect(makeSubagentAdditionalKwargs('completed', { result: 'abc' })).toEqual({
      subagent_status: 'completed',
      subagent_result_brief: 'abc',
      subagent_result_sha256: SHA_ABC,
    });
  });

  it('completed: the sha256 covers the FULL result while the brief is bounded to 2000', () => {
    const full = `${'a'.repeat(3000)}${'z'.repeat(3000)}`;
    const kwargs = makeSubagentAdditionalKwargs('completed', { result: full });
    expect(kwargs[SUBAGENT_KWARGS.resultSha256]).toBe(sha(full));
    expect(kwargs[SUBAGENT_KWARGS.resultSha256]).not.toBe(sha(String(kwargs[SUBAGENT_KWARGS.resultBrief])));
    expect(kwargs[SUBAGENT_KWARGS.resultBrief]).toBe(`${'a'.repeat(1333)}\n...\n${'z'.repeat(662)}`);
  });

  it('completed: the sha256 is of the raw result, the brief is stripped', () => {
    const kwargs = makeSubagentAdditionalKwargs('completed', { result: ' abc ' });
    expect(kwargs[SUBAGENT_KWARGS.resultBrief]).toBe('abc');
    expect(kwargs[SUBAGENT_KWARGS.resultSha256]).toBe('3eaf1941003943dfaa935adecffcaaa217e290def6fb0181141ced6c9daabaad');
  });

  it.each([null, undefined, '', '  \n'])('completed with result %p: no brief, no sha256', (result) => {
    expect(makeSubagentAdditionalKwargs('completed', { result })).toEqual({ subagent_status: 'completed' });
  });

  it('completed never carries an error', () => {
    expect(makeSubagentAdditionalKwargs('completed', { result: 'abc', error: 'ignored' })).not.toHaveProperty('subagent_error');
  });

  it.each(['failed', 'cancelled', 'timed_out', 'polling_timed_out'] as const)('%s carries the error but never a result brief', (status) => {
    expect(makeSubagentAdditionalKwargs(status, { result: 'abc', error: ' went wrong ' })).toEqual({
      subagent_status: status,
      subagent_error: 'went wrong',
    });
  });

  it('bounds the error to 2000 chars', () => {
    const error = `${'e'.repeat(2500)}END`;
    const bounded = makeSubagentAdditionalKwargs('failed', { error })[SUBAGENT_KWARGS.error];
    expect(bounded).toBe(`${'e'.repeat(1333)}\n...\n${'e'.repeat(659)}END`);
  });

  it.each([null, undefined, '', '   '])('omits a blank error %p', (error) => {
    expect(makeSubagentAdditionalKwargs('failed', { error })).toEqual({ subagent_status: 'failed' });
  });

  it('adds the stop reason', () => {
    expect(makeSubagentAdditionalKwargs('failed', { stopReason: 'loop_capped' })).toEqual({
      subagent_status: 'failed',
      subagent_stop_reason: 'loop_capped',
    });
  });

  it('throws on an invalid status', () => {
    expect(() => makeSubagentAdditionalKwargs('max_turns_reached' as WireStatus, {})).toThrow(/^invalid subagent status max_turns_reached$/);
    expect(() => makeSubagentAdditionalKwargs('running' as WireStatus, {})).toThrow('invalid subagent status');
  });

  it('throws on an invalid stop reason', () => {
    expect(() => makeSubagentAdditionalKwargs('completed', { stopReason: 'safety_capped' as StopReason })).toThrow(
      /^invalid subagent stop_reason safety_capped$/,
    );
  });

  it('strips the model name and omits a blank one', () => {
    expect(makeSubagentAdditionalKwargs('completed', { modelName: '  gpt-4o-mini \n' })).toEqual({
      subagent_status: 'completed',
      subagent_model_name: 'gpt-4o-mini',
    });
    expect(makeSubagentAdditionalKwargs('completed', { modelName: '   ' })).toEqual({ subagent_status: 'completed' });
  });

  it('adds valid usage and drops extra keys', () => {
    const kwargs = makeSubagentAdditionalKwargs('completed', {
      tokenUsage: { input_tokens: 10, output_tokens: 5, total_tokens: 15, cache_read_tokens: 3 },
    });
    expect(kwargs).toEqual({
      subagent_status: 'completed',
      subagent_token_usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
    });
  });

  it.each([
    ['a boolean count', { input_tokens: true, output_tokens: 5, total_tokens: 15 }],
    ['a negative count', { input_tokens: 10, output_tokens: -1, total_tokens: 15 }],
    ['a missing key', { input_tokens: 10, output_tokens: 5 }],
    ['a fractional count', { input_tokens: 1.5, output_tokens: 5, total_tokens: 15 }],
    ['a numeric string', { input_tokens: '10', output_tokens: 5, total_tokens: 15 }],
    ['null', null],
    ['an array', [10, 5, 15]],
  ])('omits usage with %s', (_label, tokenUsage) => {
    expect(makeSubagentAdditionalKwargs('completed', { tokenUsage })).toEqual({ subagent_status: 'completed' });
  });

  it('combines every field', () => {
    expect(
      makeSubagentAdditionalKwargs('failed', {
        result: 'ignored',
        error: 'Reached max_turns=60',
        stopReason: 'turn_capped',
        modelName: 'demo',
        tokenUsage: { input_tokens: 1, output_tokens: 2, total_tokens: 3 },
      }),
    ).toEqual({
      subagent_status: 'failed',
      subagent_error: 'Reached max_turns=60',
      subagent_stop_reason: 'turn_capped',
      subagent_model_name: 'demo',
      subagent_token_usage: { input_tokens: 1, output_tokens: 2, total_tokens: 3 },
    });
  });
});

describe('normalizeTokenUsage', () => {
  it('keeps exactly the three counts', () => {
    expect(normalizeTokenUsage({ input_tokens: 0, output_tokens: 0, total_tokens: 0, extra: 'x' })).toEqual({
      input_tokens: 0,
      output_tokens: 0,
      total_tokens: 0,
    });
  });

  it('returns null for non-objects and bad counts', () => {
    expect(normalizeTokenUsage(undefined)).toBeNull();
    expect(normalizeTokenUsage('15')).toBeNull();
    expect(normalizeTokenUsage({ input_tokens: 1, output_tokens: 1, total_tokens: false })).toBeNull();
    expect(normalizeTokenUsage({ input_tokens: 1, output_tokens: 1, total_tokens: Number.NaN })).toBeNull();
  });
});
