import { formatProgressLine, progressOf, type BatchProgress } from '../../../src/cli/batch-progress';
import { PLAIN_LINE_INTERVAL_MS, ProgressLines } from '../../../src/cli/batch-progress-view';
import type { BatchState } from '../../../src/contracts';

function state(counts: Partial<BatchState['counts']>, runningItems: number, itemCount = 10): BatchState {
  return {
    batchId: 'b',
    status: 'running',
    itemCount,
    counts: { pending: 0, running: 0, completed: 0, failed: 0, cancelled: 0, timed_out: 0, ...counts },
    liveItems: counts.running ?? 0,
    runningItems,
    continuedRuns: 0,
  };
}

function progress(done: number, total = 10): BatchProgress {
  return { total, done, completed: done, failed: 0, cancelled: 0, running: 1, queued: total - done - 1 };
}

describe('progressOf', () => {
  test('done counts every terminal status; failed includes timed out; live items without a slot are queued', () => {
    const p = progressOf(state({ pending: 2, running: 4, completed: 2, failed: 1, timed_out: 1 }, 3));
    expect(p).toEqual({ total: 10, done: 4, completed: 2, failed: 2, cancelled: 0, running: 3, queued: 3 });
  });

  test('a slot still held by an item that ended is not counted as running', () => {
    expect(progressOf(state({ running: 1, completed: 9 }, 2))).toMatchObject({ running: 1, queued: 0 });
  });
});

test('formatProgressLine: counts, rate and ETA on one plain line', () => {
  const line = formatProgressLine({ total: 5, done: 3, completed: 2, failed: 1, cancelled: 0, running: 1, queued: 1 }, '0.50 items/s', '4s');
  expect(line).toBe('batch 3/5 done (60%): 2 completed, 1 failed, 1 running, 1 queued; 0.50 items/s, ETA 4s');
  expect(formatProgressLine({ total: 2, done: 2, completed: 0, failed: 0, cancelled: 2, running: 0, queued: 0 }, 'r', 'e')).toContain(
    '0 failed, 2 cancelled, 0 running',
  );
});

describe('ProgressLines', () => {
  function view() {
    const written: string[] = [];
    let now = 0;
    const lines = new ProgressLines({ write: (text: string) => written.push(text) }, () => now);
    return { written, lines, at: (ms: number) => (now = ms) };
  }

  test('a line at the start and whenever the share done enters a new tenth', () => {
    const { written, lines, at } = view();
    lines.update(progress(0));
    at(100);
    lines.update(progress(0));
    at(200);
    lines.update(progress(1));
    at(300);
    lines.update(progress(3));
    expect(written.map((l) => l.split(':')[0])).toEqual(['batch 0/10 done (0%)', 'batch 1/10 done (10%)', 'batch 3/10 done (30%)']);
    expect(written.every((l) => l.endsWith('\n') && !l.includes('\x1b'))).toBe(true);
  });

  test('within a tenth, changed counts are written at most once per interval', () => {
    const { written, lines, at } = view();
    const changed = (n: number): BatchProgress => ({ ...progress(0, 1000), running: n, queued: 1000 - n });
    lines.update(changed(1));
    at(1_000);
    lines.update(changed(2));
    expect(written).toHaveLength(1);
    at(PLAIN_LINE_INTERVAL_MS);
    lines.update(changed(3));
    expect(written).toHaveLength(2);
    at(PLAIN_LINE_INTERVAL_MS * 3);
    lines.update(changed(3));
    expect(written).toHaveLength(2);
  });

  test('stop writes the latest counts when they were not written yet', () => {
    const { written, lines, at } = view();
    lines.update({ ...progress(0, 1000), running: 1 });
    at(10);
    lines.update({ ...progress(0, 1000), running: 2 });
    lines.stop();
    expect(written).toHaveLength(2);
    expect(written[1]).toContain('2 running');
    lines.stop();
    expect(written).toHaveLength(2);
  });
});
