import { countsAfterPoll, countsAtStart, nextPollMs, openItems, shouldSettle } from '../../../src/workflows/batch-earlier-items';

const zero = { pending: 0, running: 0, completed: 0, failed: 0, cancelled: 0, timed_out: 0 };

test('openItems counts the items waiting for a lease and those holding one', () => {
  expect(openItems({ ...zero, pending: 3, running: 2, completed: 9 })).toBe(5);
  expect(openItems({ ...zero, failed: 1 })).toBe(0);
});

test('countsAtStart counts started items as running and every later item as pending', () => {
  const earlier = { ...zero, pending: 4, running: 2, completed: 30, failed: 1, timed_out: 1 };
  expect(countsAtStart(100, earlier)).toEqual({ pending: 62, running: 6, completed: 30, failed: 1, cancelled: 0, timed_out: 1 });
  expect(countsAtStart(38, earlier)).toEqual({ pending: 0, running: 6, completed: 30, failed: 1, cancelled: 0, timed_out: 1 });
});

test('countsAfterPoll moves the earlier items that ended from running to their status, leaving the run\'s own counts', () => {
  // The run started 5 items of its own (running 6 + 5) and finished 2 of them (completed 30 + 2).
  const counts = { pending: 55, running: 9, completed: 32, failed: 1, cancelled: 0, timed_out: 1 };
  const before = { ...zero, pending: 4, running: 2, completed: 30, failed: 1, timed_out: 1 };
  const after = { ...zero, pending: 1, running: 2, completed: 32, failed: 2, timed_out: 1 };
  expect(countsAfterPoll(counts, before, after)).toEqual({ pending: 55, running: 6, completed: 34, failed: 2, cancelled: 0, timed_out: 1 });
  // A lease taken (pending -> running) changes nothing the run shows.
  expect(countsAfterPoll(counts, before, { ...before, pending: 3, running: 3 })).toEqual(counts);
});

test('nextPollMs starts at the interval, doubles while nothing changes up to the cap, and drops back on a change', () => {
  expect(nextPollMs(null, false, 200, 10_000)).toBe(200);
  expect(nextPollMs(200, false, 200, 10_000)).toBe(400);
  expect(nextPollMs(6_400, false, 200, 10_000)).toBe(10_000);
  expect(nextPollMs(10_000, false, 200, 10_000)).toBe(10_000);
  expect(nextPollMs(10_000, true, 200, 10_000)).toBe(200);
  // A cap below the interval never makes polls faster than the interval.
  expect(nextPollMs(500, false, 500, 100)).toBe(500);
});

test('shouldSettle only once the open count stood still for a lease length', () => {
  expect(shouldSettle(9_999, 10_000)).toBe(false);
  expect(shouldSettle(10_000, 10_000)).toBe(true);
});
