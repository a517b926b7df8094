import { BatchLeaseWaiters } from '../../../src/activities/batch-lease-waiters';

const LONG_MS = 60_000;

/** Resolves with the order in which the given waits ended. */
function track(waits: Record<string, Promise<void>>): string[] {
  const order: string[] = [];
  for (const [name, wait] of Object.entries(waits)) void wait.then(() => order.push(name));
  return order;
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

test('a released lease wakes the longest waiter of that batch only', async () => {
  const waiters = new BatchLeaseWaiters();
  const never = new AbortController().signal;
  const order = track({
    first: waiters.wait('b1', LONG_MS, never),
    second: waiters.wait('b1', LONG_MS, never),
    other: waiters.wait('b2', LONG_MS, never),
  });
  waiters.released('b1');
  await tick();
  expect(order).toEqual(['first']);
  waiters.released('b1');
  await tick();
  expect(order).toEqual(['first', 'second']);
  // Nobody of b1 is left: a release wakes no one elsewhere.
  waiters.released('b1');
  await tick();
  expect(order).toEqual(['first', 'second']);
  waiters.released('b2');
  await tick();
  expect(order).toEqual(['first', 'second', 'other']);
});

test('a wait ends after its time, or when its signal aborts, and leaves the queue', async () => {
  const waiters = new BatchLeaseWaiters();
  const abort = new AbortController();
  const order = track({
    aborted: waiters.wait('b1', LONG_MS, abort.signal),
    // Long enough that a loaded machine still runs the abort's tick first.
    timed: waiters.wait('b1', 300, new AbortController().signal),
    last: waiters.wait('b1', LONG_MS, new AbortController().signal),
  });
  abort.abort();
  await tick();
  expect(order).toEqual(['aborted']);
  await new Promise((resolve) => setTimeout(resolve, 600));
  expect(order).toEqual(['aborted', 'timed']);
  // The two that left are out of the queue: the next release goes to the one still waiting.
  waiters.released('b1');
  await tick();
  expect(order).toEqual(['aborted', 'timed', 'last']);
});

test('a wait whose signal is already aborted ends at once', async () => {
  const waiters = new BatchLeaseWaiters();
  const abort = new AbortController();
  abort.abort();
  const order = track({ gone: waiters.wait('b1', LONG_MS, abort.signal), next: waiters.wait('b1', LONG_MS, new AbortController().signal) });
  await tick();
  expect(order).toEqual(['gone']);
  waiters.released('b1');
  await tick();
  expect(order).toEqual(['gone', 'next']);
});
