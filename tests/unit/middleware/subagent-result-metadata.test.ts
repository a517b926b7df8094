import { sha256Hex } from '../../../src/activities/sha256-hex';
import { SUBAGENT_KWARGS, makeSubagentAdditionalKwargs } from '../../../src/activities/task-result-message';
import { readSubagentResultMetadata, SUBAGENT_METADATA_KEYS } from '../../../src/middleware';

const SHA = sha256Hex('the full result');

describe('SUBAGENT_METADATA_KEYS', () => {
  it('matches the keys the task tool writes', () => {
    expect(SUBAGENT_METADATA_KEYS).toEqual({
      status: SUBAGENT_KWARGS.status,
      stopReason: SUBAGENT_KWARGS.stopReason,
      error: SUBAGENT_KWARGS.error,
      resultBrief: SUBAGENT_KWARGS.resultBrief,
      resultSha256: SUBAGENT_KWARGS.resultSha256,
    });
  });
});

describe('readSubagentResultMetadata (SPEC §3.4)', () => {
  it('returns null without an object or a known status', () => {
    expect(readSubagentResultMetadata(undefined)).toBeNull();
    expect(readSubagentResultMetadata(null)).toBeNull();
    expect(readSubagentResultMetadata('completed')).toBeNull();
    expect(readSubagentResultMetadata({})).toBeNull();
    expect(readSubagentResultMetadata({ subagent_status: 'running' })).toBeNull();
    expect(readSubagentResultMetadata({ subagent_status: 'COMPLETED' })).toBeNull();
    expect(readSubagentResultMetadata({ subagent_status: 7 })).toBeNull();
  });

  it('reads a completed result: brief and sha, never an error', () => {
    expect(
      readSubagentResultMetadata({
        subagent_status: 'completed',
        subagent_result_brief: '  found 3 sources  ',
        subagent_result_sha256: SHA,
        subagent_error: 'ignored for completed',
        subagent_model_name: 'm',
      }),
    ).toEqual({ status: 'completed', result_brief: 'found 3 sources', result_sha256: SHA });
  });

  it('bounds the brief and the error to 2000 chars, head and tail', () => {
    const long = `${'h'.repeat(1500)}${'t'.repeat(1500)}`;
    const bounded = `${'h'.repeat(1333)}\n...\n${'t'.repeat(662)}`;
    expect(readSubagentResultMetadata({ subagent_status: 'completed', subagent_result_brief: long })).toEqual({
      status: 'completed',
      result_brief: bounded,
    });
    expect(readSubagentResultMetadata({ subagent_status: 'failed', subagent_error: long })).toEqual({ status: 'failed', error: bounded });
  });

  it('reads a failed result: error only, no brief, no sha', () => {
    expect(
      readSubagentResultMetadata({
        subagent_status: 'failed',
        subagent_error: 'boom',
        subagent_result_brief: 'not for failures',
        subagent_result_sha256: SHA,
      }),
    ).toEqual({ status: 'failed', error: 'boom' });
  });

  it('drops blank errors and briefs', () => {
    expect(readSubagentResultMetadata({ subagent_status: 'cancelled', subagent_error: '   ' })).toEqual({ status: 'cancelled' });
    expect(readSubagentResultMetadata({ subagent_status: 'completed', subagent_result_brief: ' ', subagent_result_sha256: SHA })).toEqual({
      status: 'completed',
    });
  });

  it.each([
    ['uppercase', SHA.toUpperCase()],
    ['63 chars', SHA.slice(1)],
    ['65 chars', `${SHA}0`],
    ['leading space', ` ${SHA}`],
    ['trailing newline', `${SHA}\n`],
    ['inner space', `${SHA.slice(0, 32)} ${SHA.slice(33)}`],
    ['non-hex', `${SHA.slice(0, 63)}g`],
  ])('drops a malformed sha256 (%s)', (_label, sha) => {
    expect(readSubagentResultMetadata({ subagent_status: 'completed', subagent_result_brief: 'r', subagent_result_sha256: sha })).toEqual({
      status: 'completed',
      result_brief: 'r',
    });
  });

  it('keeps only valid stop reasons', () => {
    expect(readSubagentResultMetadata({ subagent_status: 'completed', subagent_result_brief: 'r', subagent_stop_reason: 'token_capped' })).toEqual({
      status: 'completed',
      result_brief: 'r',
      stop_reason: 'token_capped',
    });
    expect(readSubagentResultMetadata({ subagent_status: 'failed', subagent_stop_reason: 'bogus' })).toEqual({ status: 'failed' });
  });

  describe('legacy max_turns_reached', () => {
    it('with a brief becomes completed + turn_capped', () => {
      expect(
        readSubagentResultMetadata({ subagent_status: 'max_turns_reached', subagent_result_brief: 'partial', subagent_result_sha256: SHA, subagent_error: 'cap' }),
      ).toEqual({ status: 'completed', result_brief: 'partial', result_sha256: SHA, stop_reason: 'turn_capped' });
    });

    it('without a usable brief becomes failed + turn_capped', () => {
      expect(readSubagentResultMetadata({ subagent_status: 'max_turns_reached', subagent_error: 'Reached max_turns=5' })).toEqual({
        status: 'failed',
        error: 'Reached max_turns=5',
        stop_reason: 'turn_capped',
      });
      expect(readSubagentResultMetadata({ subagent_status: 'max_turns_reached', subagent_result_brief: '  ' })).toEqual({
        status: 'failed',
        stop_reason: 'turn_capped',
      });
    });

    it('an explicit valid stop reason wins; an invalid one falls back to turn_capped', () => {
      expect(readSubagentResultMetadata({ subagent_status: 'max_turns_reached', subagent_stop_reason: 'loop_capped' })).toEqual({
        status: 'failed',
        stop_reason: 'loop_capped',
      });
      expect(readSubagentResultMetadata({ subagent_status: 'max_turns_reached', subagent_stop_reason: 'nope' })).toEqual({
        status: 'failed',
        stop_reason: 'turn_capped',
      });
    });
  });

  it('reads back what the task tool writes', () => {
    const kwargs = makeSubagentAdditionalKwargs('completed', { result: 'the full result', stopReason: 'token_capped', modelName: 'm' });
    expect(readSubagentResultMetadata(kwargs)).toEqual({
      status: 'completed',
      result_brief: 'the full result',
      result_sha256: SHA,
      stop_reason: 'token_capped',
    });
    expect(readSubagentResultMetadata(makeSubagentAdditionalKwargs('timed_out', { error: 'Task timed out.' }))).toEqual({
      status: 'timed_out',
      error: 'Task timed out.',
    });
  });
});
