import { armTaskDeadline, TaskDeadlineExceeded } from '../../../src/activities/task-deadline';

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

const flush = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

describe('armTaskDeadline', () => {
  it('aborts with TaskDeadlineExceeded once the timeout passed and the run granted nothing more', async () => {
    const deadline = armTaskDeadline(2, async () => 2, () => Date.now());
    jest.advanceTimersByTime(1999);
    await flush();
    expect(deadline.signal.aborted).toBe(false);
    jest.advanceTimersByTime(1);
    await flush();
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.signal.reason).toBeInstanceOf(TaskDeadlineExceeded);
    expect((deadline.signal.reason as Error).message).toBe('Execution timed out after 2 seconds');
  });

  it('re-arms for an extension granted meanwhile, and asks only when a deadline is reached', async () => {
    let total = 2;
    const ask = jest.fn(async () => total);
    const deadline = armTaskDeadline(2, ask, () => Date.now());
    total = 5;
    jest.advanceTimersByTime(2000);
    await flush();
    expect(ask).toHaveBeenCalledTimes(1);
    expect(deadline.signal.aborted).toBe(false);
    jest.advanceTimersByTime(2999);
    await flush();
    expect(deadline.signal.aborted).toBe(false);
    jest.advanceTimersByTime(1);
    await flush();
    expect(ask).toHaveBeenCalledTimes(2);
    expect((deadline.signal.reason as Error).message).toBe('Execution timed out after 5 seconds');
  });

  it('keeps the deadline it knew when the run cannot be asked, and stop() disarms it', async () => {
    const failing = armTaskDeadline(1, () => Promise.reject(new Error('unreachable')), () => Date.now());
    jest.advanceTimersByTime(1000);
    await flush();
    expect(failing.signal.aborted).toBe(true);
    const stopped = armTaskDeadline(1, async () => 1, () => Date.now());
    stopped.stop();
    jest.advanceTimersByTime(5000);
    await flush();
    expect(stopped.signal.aborted).toBe(false);
  });
});
