import { batchExitCode, batchJsonOutput, type BatchOutcome } from '../../../src/cli/batch-report';
import { formatBatchSummary, SUMMARY_MAX_FAILURES } from '../../../src/cli/batch-summary';
import type { BatchItemRecord } from '../../../src/contracts';

function item(position: number, fields: Partial<BatchItemRecord> = {}): BatchItemRecord {
  return {
    batch_id: 'b1',
    key: String(position + 1).padStart(6, '0'),
    position,
    prompt: `p${position}`,
    acceptance_criteria: null,
    status: 'completed',
    attempts: 1,
    attempt_history: [],
    result_chars: 2,
    result_truncated: false,
    result_sha256: null,
    stop_reason: null,
    error: null,
    usage: null,
    started_at: null,
    completed_at: null,
    updated_at: '2026-01-01T00:00:00.000Z',
    result: `r${position}`,
    ...fields,
  };
}

const COUNTS = { pending: 0, running: 0, completed: 2, failed: 1, cancelled: 0, timed_out: 0 };

function outcome(fields: Partial<BatchOutcome> = {}): BatchOutcome {
  return {
    batchId: 'b1',
    status: 'completed',
    itemCount: 3,
    counts: COUNTS,
    items: [item(0), item(1, { status: 'failed', attempts: 2, result: null, error: 'boom\nstack' }), item(2, { stop_reason: 'turn_capped' })],
    ...fields,
  };
}

test('batchJsonOutput: the contract object, index = position', () => {
  expect(batchJsonOutput(outcome())).toEqual({
    batch_id: 'b1',
    status: 'completed',
    counts: COUNTS,
    items: [
      { index: 0, status: 'completed', attempts: 1, stop_reason: null, result: 'r0', error: null },
      { index: 1, status: 'failed', attempts: 2, stop_reason: null, result: null, error: 'boom\nstack' },
      { index: 2, status: 'completed', attempts: 1, stop_reason: 'turn_capped', result: 'r2', error: null },
    ],
  });
});

test('batchExitCode: 0 only when the batch completed with every item completed', () => {
  expect(batchExitCode(outcome())).toBe(1);
  expect(batchExitCode(outcome({ counts: { ...COUNTS, completed: 3, failed: 0 } }))).toBe(0);
  expect(batchExitCode(outcome({ status: 'cancelled', counts: { ...COUNTS, completed: 3, failed: 0 } }))).toBe(1);
});

describe('formatBatchSummary', () => {
  test('status and counts, then each failed or timed-out item with its key, line and first error line', () => {
    const items = [item(1, { status: 'failed', error: 'boom\nstack' }), item(2, { key: 'k', status: 'timed_out', error: null })];
    expect(formatBatchSummary(outcome({ items }), [1, 3, 4])).toEqual([
      'batch b1 completed: 3 items, 2 completed, 1 failed, 0 timed out, 0 cancelled',
      'failed items:',
      '  000002 (line 3): failed: boom',
      '  k (line 4): timed out: (no error recorded)',
    ]);
  });

  test('no failure list when nothing failed; unfinished items are counted', () => {
    const counts = { ...COUNTS, pending: 1, running: 1, failed: 0 };
    expect(formatBatchSummary(outcome({ status: 'cancelled', counts, items: [] }), [])).toEqual([
      'batch b1 cancelled: 3 items, 2 completed, 0 failed, 0 timed out, 0 cancelled, 2 not finished',
    ]);
  });

  test('long failure lists are cut', () => {
    const items = Array.from({ length: SUMMARY_MAX_FAILURES + 3 }, (_, i) => item(i, { status: 'failed', error: 'x'.repeat(400) }));
    const lines = formatBatchSummary(outcome({ items }), []);
    expect(lines).toHaveLength(2 + SUMMARY_MAX_FAILURES + 1);
    expect(lines[2]).toBe(`  000001: failed: ${'x'.repeat(300)}...`);
    expect(lines[lines.length - 1]).toBe('  ... and 3 more');
  });
});
