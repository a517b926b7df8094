import { parseConfigText } from '../../../src/config';
import { problemsOf } from './problems-of';

describe('gateway stream keys', () => {
  it('default to a 5 s longest idle pause and 8 streams per caller', () => {
    const { gateway } = parseConfigText('{}', null);
    expect({ max: gateway.stream_poll_max_ms, streams: gateway.max_streams_per_caller }).toEqual({ max: 5_000, streams: 8 });
  });

  it('refuse values out of range, naming the key', () => {
    expect(problemsOf('gateway:\n  stream_poll_max_ms: 100\n  max_streams_per_caller: 0\n')).toEqual([
      'gateway.stream_poll_max_ms: must be >= 500',
      'gateway.max_streams_per_caller: must be >= 1',
    ]);
    expect(problemsOf('gateway:\n  stream_poll_max_ms: 60001\n  max_streams_per_caller: 1.5\n')).toEqual([
      'gateway.stream_poll_max_ms: must be <= 60000',
      expect.stringMatching(/^gateway\.max_streams_per_caller: /),
    ]);
  });
});
