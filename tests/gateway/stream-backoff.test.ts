import { nextPollPause, type PollBackoff } from '../../src/gateway';

describe('nextPollPause', () => {
  const backoff: PollBackoff = { baseMs: 500, maxMs: 5_000 };

  it('doubles from the base while polls find nothing, up to the maximum', () => {
    const pauses: number[] = [];
    let pause: number | null = null;
    for (let i = 0; i < 7; i += 1) {
      pause = nextPollPause(pause, false, backoff);
      pauses.push(pause);
    }
    expect(pauses).toEqual([500, 1_000, 2_000, 4_000, 5_000, 5_000, 5_000]);
  });

  it('drops back to the base as soon as a poll finds rows', () => {
    expect(nextPollPause(5_000, true, backoff)).toBe(500);
    expect(nextPollPause(2_000, true, backoff)).toBe(500);
    expect(nextPollPause(null, true, backoff)).toBe(500);
    // And grows again from there.
    expect(nextPollPause(nextPollPause(5_000, true, backoff), false, backoff)).toBe(1_000);
  });

  it('keeps a fixed pace when the maximum is not above the base', () => {
    expect(nextPollPause(500, false, { baseMs: 500, maxMs: 500 })).toBe(500);
    expect(nextPollPause(500, false, { baseMs: 500, maxMs: 100 })).toBe(500);
    expect(nextPollPause(null, false, { baseMs: 500, maxMs: 100 })).toBe(500);
  });

  it('never pauses below the base, whatever the previous pause was', () => {
    expect(nextPollPause(10, false, backoff)).toBe(500);
    expect(nextPollPause(3_000, false, backoff)).toBe(5_000);
  });
});
