import { CancelledFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { untilStored } from '../../../src/activities/until-stored';

test('a write refused while the store is down is retried until it succeeds', async () => {
  const env = new MockActivityEnvironment();
  let calls = 0;
  const write = async (): Promise<string> => {
    calls += 1;
    if (calls < 3) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
    return 'ref-1';
  };
  await expect(env.run(() => untilStored(write))).resolves.toBe('ref-1');
  expect(calls).toBe(3);
});

test('a cancelled execution stops retrying and throws its cancellation', async () => {
  const env = new MockActivityEnvironment();
  let calls = 0;
  const write = async (): Promise<string> => {
    calls += 1;
    if (calls === 2) env.cancel();
    throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
  };
  await expect(env.run(() => untilStored(write))).rejects.toBeInstanceOf(CancelledFailure);
  expect(calls).toBe(2);
});

test('a failure the outage cannot explain is thrown at once', async () => {
  const env = new MockActivityEnvironment();
  let calls = 0;
  const write = async (): Promise<string> => {
    calls += 1;
    throw new TypeError('stored definition does not validate');
  };
  await expect(env.run(() => untilStored(write, (err) => !(err instanceof TypeError)))).rejects.toThrow('stored definition does not validate');
  expect(calls).toBe(1);
});
