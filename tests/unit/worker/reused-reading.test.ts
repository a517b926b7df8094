import { reusedReading } from '../../../src/worker/reused-reading';

describe('reusedReading', () => {
  let clock = 0;
  let reads = 0;
  const read = async () => ++reads;
  beforeEach(() => {
    clock = 0;
    reads = 0;
  });

  test('reuses a reading until it is maxAgeMs old, then reads again', async () => {
    const reading = reusedReading(read, 1_000, () => clock);
    expect(await reading()).toBe(1);
    clock = 999;
    expect(await reading()).toBe(1);
    clock = 1_000;
    expect(await reading()).toBe(2);
    expect(reads).toBe(2);
  });

  test('callers that ask while a read is in flight share it', async () => {
    let finish: (value: number) => void = () => undefined;
    const slow = () => {
      reads++;
      return new Promise<number>((resolve) => (finish = resolve));
    };
    const reading = reusedReading(slow, 1_000, () => clock);
    const first = reading();
    const second = reading();
    finish(7);
    expect(await Promise.all([first, second])).toEqual([7, 7]);
    expect(reads).toBe(1);
  });

  test('a failed read is not reused: the next caller reads again', async () => {
    let fail = true;
    const flaky = async () => {
      reads++;
      if (fail) throw new Error('server unavailable');
      return 3;
    };
    const reading = reusedReading(flaky, 1_000, () => clock);
    await expect(reading()).rejects.toThrow('server unavailable');
    fail = false;
    expect(await reading()).toBe(3);
    expect(reads).toBe(2);
  });
});
