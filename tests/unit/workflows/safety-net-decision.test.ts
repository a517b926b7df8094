import { decideSafetyNet, type WatchedTask } from '../../../src/workflows/safety-net-decision';

const GRACE = 60;
const watched = (taskId: string, timeoutSeconds: number, overrides: Partial<WatchedTask> = {}): WatchedTask => ({
  taskId,
  dispatchedAtMs: 1_000_000,
  timeoutSeconds,
  settled: false,
  ...overrides,
});

describe('decideSafetyNet', () => {
  it('arms one timer for the earliest deadline: timeout plus grace after dispatch', () => {
    const decision = decideSafetyNet([watched('a', 900), watched('b', 300), watched('c', 600)], 1_000_000, GRACE);
    expect(decision).toEqual({ overdue: [], wakeInMs: (300 + GRACE) * 1000 });
  });

  it("counts from each task's own dispatch, so time spent already shortens the wait", () => {
    const decision = decideSafetyNet([watched('a', 300), watched('b', 300, { dispatchedAtMs: 1_010_000 })], 1_100_000, GRACE);
    expect(decision.wakeInMs).toBe((300 + GRACE) * 1000 - 100_000);
  });

  it('gives up on every task due by now (a deadline reached exactly included) and watches the rest', () => {
    const now = 1_000_000 + (300 + GRACE) * 1000;
    const decision = decideSafetyNet([watched('a', 300), watched('b', 200), watched('c', 600)], now, GRACE);
    expect(decision).toEqual({ overdue: ['a', 'b'], wakeInMs: 300_000 });
  });

  it('sees an extension as a later deadline: a timer armed for the old one re-arms for the rest', () => {
    const oldDeadline = 1_000_000 + (300 + GRACE) * 1000;
    const decision = decideSafetyNet([watched('a', 300 + 120)], oldDeadline, GRACE);
    expect(decision).toEqual({ overdue: [], wakeInMs: 120_000 });
  });

  it('leaves settled tasks (given up on, or cancelled) alone, and stops once none is left to watch', () => {
    const late = 1_000_000 + 10_000_000;
    expect(decideSafetyNet([watched('a', 300, { settled: true }), watched('b', 300, { settled: true })], late, GRACE)).toEqual({ overdue: [], wakeInMs: null });
    expect(decideSafetyNet([], late, GRACE)).toEqual({ overdue: [], wakeInMs: null });
  });
});
