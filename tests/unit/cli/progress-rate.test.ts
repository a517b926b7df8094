import { formatDuration, formatRate, RateEstimator } from '../../../src/cli/progress-rate';

describe('RateEstimator', () => {
  test('no rate and no ETA before time has passed', () => {
    const rate = new RateEstimator();
    expect(rate.rate()).toBeNull();
    expect(rate.etaSeconds(10)).toBeNull();
    rate.add(1_000, 0);
    expect(rate.rate()).toBeNull();
    expect(rate.etaSeconds(10)).toBeNull();
  });

  test('items per second between the first and last sample, and the time left at that pace', () => {
    const rate = new RateEstimator();
    rate.add(0, 0);
    rate.add(2_000, 4);
    expect(rate.rate()).toBe(2);
    expect(rate.etaSeconds(10)).toBe(3);
  });

  test('nothing finishing means no ETA; everything done means 0', () => {
    const rate = new RateEstimator();
    rate.add(0, 3);
    rate.add(5_000, 3);
    expect(rate.rate()).toBe(0);
    expect(rate.etaSeconds(10)).toBeNull();
    rate.add(6_000, 10);
    expect(rate.etaSeconds(10)).toBe(0);
  });

  test('the rate follows the last window, not the average since the start', () => {
    const rate = new RateEstimator(10_000);
    rate.add(0, 0);
    rate.add(60_000, 6); // slow start: 0.1/s
    for (let t = 61_000; t <= 80_000; t += 1_000) rate.add(t, 6 + (t - 60_000) / 1_000); // then 1/s
    expect(rate.rate()).toBeCloseTo(1, 5);
  });
});

test('formatRate', () => {
  expect(formatRate(null)).toBe('- items/s');
  expect(formatRate(0.5)).toBe('0.50 items/s');
  expect(formatRate(12.345)).toBe('12.3 items/s');
});

test('formatDuration', () => {
  expect(formatDuration(null)).toBe('--');
  expect(formatDuration(Infinity)).toBe('--');
  expect(formatDuration(0)).toBe('0s');
  expect(formatDuration(4.2)).toBe('5s');
  expect(formatDuration(185)).toBe('3m05s');
  expect(formatDuration(2 * 3600 + 7 * 60 + 30)).toBe('2h07m');
});
