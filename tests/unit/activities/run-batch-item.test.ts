import { MockActivityEnvironment } from '@temporalio/testing';
import { createItemEndWriter } from '../../../src/activities/batch-item-end';
import { BatchLeaseWaiters } from '../../../src/activities/batch-lease-waiters';
import { createRunBatchItem } from '../../../src/activities/run-batch-item';
import type { SubagentExecutor } from '../../../src/activities/run-subagent';
import type { BatchItemRunInput, SubagentExecutionResult } from '../../../src/contracts';
import { BATCH_ITEM_FENCED_TYPE, BATCH_LEASE_WAIT_TIMEOUT_TYPE, INVALID_INPUT_TYPE } from '../../../src/contracts/failure-types';
import { batchInput, itemExecution, MAX_ITEMS, OWNER } from '../../store/conformance/batch-fixtures';
import { applicationFailureOf } from '../../support/application-failure-of';
import { storeOnlyDeps } from '../../support/store-only-deps';
import { useMemoryStores } from '../../support/memory-stores';

const RESULT: SubagentExecutionResult = {
  taskId: 'a',
  attempt: 1,
  status: 'completed',
  stopReason: null,
  resultBrief: 'done',
  resultSha256: null,
  resultRef: null,
  error: null,
  modelName: 'm',
  usage: null,
  steps: 1,
};

function itemTry(key: string, overrides: Partial<BatchItemRunInput> = {}): BatchItemRunInput {
  const item = itemExecution(key);
  // A poll interval far longer than any test: a waiter that starts soon was woken, not polling.
  return { item, leaseSeconds: 30, pollIntervalSeconds: 60, ...overrides };
}

/** An executor whose runs end when the test says so. */
class HeldExecutor {
  readonly started: string[] = [];
  readonly #finish = new Map<string, (result: SubagentExecutionResult | Error) => void>();
  readonly execute: SubagentExecutor = (input) =>
    new Promise((resolve, reject) => {
      this.started.push(input.kind === 'batchItem' ? input.key : input.taskId);
      this.#finish.set(input.kind === 'batchItem' ? input.key : input.taskId, (outcome) => (outcome instanceof Error ? reject(outcome) : resolve(outcome)));
    });
  finish(key: string, outcome: SubagentExecutionResult | Error = RESULT): void {
    this.#finish.get(key)!(outcome);
  }
}

async function until(check: () => boolean | Promise<boolean>, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('runBatchItem', () => {
  const stores = useMemoryStores();
  let executor: HeldExecutor;
  let runBatchItem: ReturnType<typeof createRunBatchItem>;
  const run = (input: BatchItemRunInput) => new MockActivityEnvironment({ activityType: 'runBatchItem' }).run(runBatchItem, input);
  const row = (key: string) => stores().batches.getItem('b1', OWNER, key);

  beforeEach(async () => {
    executor = new HeldExecutor();
    const deps = storeOnlyDeps(stores());
    runBatchItem = createRunBatchItem(stores().batches, executor.execute, createItemEndWriter(deps), new BatchLeaseWaiters());
  });

  test('at most max_running_items run; a lease given back goes to the next waiter of this process at once', async () => {
    await stores().batches.createBatch(batchInput({ limits: { maxLiveItems: 10, maxRunningItems: 2, maxAttempts: 3 } }), { maxItems: MAX_ITEMS });
    const a = run(itemTry('a'));
    const b = run(itemTry('b'));
    const c = run(itemTry('c'));
    await until(() => executor.started.length === 2);
    expect(executor.started).toEqual(['a', 'b']);
    // The lease marked the items running in their attempt; the waiting one is still pending.
    expect(await row('a')).toMatchObject({ status: 'running', attempts: 1, started_at: expect.any(String) });
    expect(await row('c')).toMatchObject({ status: 'pending', attempts: 0 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(executor.started).toEqual(['a', 'b']);

    const freedAt = Date.now();
    executor.finish('a');
    // A completed try writes the item's end itself, and its subagent.end.
    await expect(a).resolves.toEqual({ result: RESULT, finished: { written: true, status: 'completed' } });
    expect(await row('a')).toMatchObject({ status: 'completed', attempts: 1, result: null, completed_at: expect.any(String) });
    const ends = await stores().events.listEvents({ runId: 'b1', eventTypes: ['subagent.end'] });
    expect(ends.map((e) => [e.taskId, (e.payload as { status: string }).status])).toEqual([['a', 'completed']]);
    await until(() => executor.started.length === 3);
    // Woken by the release, not by the 60 s poll.
    expect(Date.now() - freedAt).toBeLessThan(2_000);
    expect(await row('c')).toMatchObject({ status: 'running', attempts: 1 });
    executor.finish('b');
    executor.finish('c');
    const done = { result: RESULT, finished: { written: true, status: 'completed' } };
    await expect(Promise.all([b, c])).resolves.toEqual([done, done]);
  });

  test('a try that did not complete leaves the end to its workflow and gives its lease back', async () => {
    await stores().batches.createBatch(batchInput({ limits: { maxLiveItems: 10, maxRunningItems: 1, maxAttempts: 3 } }), { maxItems: MAX_ITEMS });
    const a = run(itemTry('a'));
    await until(() => executor.started.length === 1);
    const failed: SubagentExecutionResult = { ...RESULT, status: 'failed', error: 'refused', resultBrief: null };
    executor.finish('a', failed);
    await expect(a).resolves.toEqual({ result: failed, finished: null });
    expect(await row('a')).toMatchObject({ status: 'running', attempts: 1 });
    await expect(stores().batches.acquireItemLease('b1', 'b', 1, 30_000)).resolves.toMatchObject({ kind: 'leased' });
  });

  test('a try that completes after its batch was cancelled finds the row cancelled: the end is fenced', async () => {
    await stores().batches.createBatch(batchInput(), { maxItems: MAX_ITEMS });
    const a = run(itemTry('a'));
    await until(() => executor.started.length === 1);
    await stores().batches.cancelBatch('b1', OWNER);
    executor.finish('a');
    await expect(a).resolves.toEqual({ result: RESULT, finished: { written: false, status: 'cancelled' } });
    expect(await row('a')).toMatchObject({ status: 'cancelled', result: null });
  });

  test('a run that throws still gives its lease back', async () => {
    await stores().batches.createBatch(batchInput({ limits: { maxLiveItems: 10, maxRunningItems: 1, maxAttempts: 3 } }), { maxItems: MAX_ITEMS });
    const a = run(itemTry('a'));
    await until(() => executor.started.length === 1);
    executor.finish('a', new Error('boom'));
    await expect(a).rejects.toThrow('boom');
    await expect(stores().batches.acquireItemLease('b1', 'b', 1, 30_000)).resolves.toMatchObject({ kind: 'leased' });
  });

  test('a batch full for a whole lease length ends the try as a lease wait timeout; the model never ran', async () => {
    await stores().batches.createBatch(batchInput({ limits: { maxLiveItems: 10, maxRunningItems: 1, maxAttempts: 3 } }), { maxItems: MAX_ITEMS });
    await stores().batches.acquireItemLease('b1', 'a', 1, 60_000);
    const failure = await applicationFailureOf(run(itemTry('b', { leaseSeconds: 1, pollIntervalSeconds: 0.2 })));
    expect(failure.type).toBe(BATCH_LEASE_WAIT_TIMEOUT_TYPE);
    expect(failure.nonRetryable).toBe(true);
    expect(failure.message).toContain('1 of 1 running');
    expect(executor.started).toEqual([]);
    expect(await row('b')).toMatchObject({ status: 'pending', attempts: 0 });
  });

  test("a try its worker's shutdown stops while it waits for a lease ends as a lease wait: it used no attempt", async () => {
    await stores().batches.createBatch(batchInput({ limits: { maxLiveItems: 10, maxRunningItems: 1, maxAttempts: 3 } }), { maxItems: MAX_ITEMS });
    const runningEnv = new MockActivityEnvironment({ activityType: 'runBatchItem' });
    const waitingEnv = new MockActivityEnvironment({ activityType: 'runBatchItem' });
    const a = runningEnv.run(runBatchItem, itemTry('a'));
    await until(() => executor.started.length === 1);
    const b = waitingEnv.run(runBatchItem, itemTry('b', { pollIntervalSeconds: 0.2 }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    waitingEnv.cancel('WORKER_SHUTDOWN');
    const waited = await applicationFailureOf(b);
    executor.finish('a');
    await expect(a).resolves.toMatchObject({ finished: { written: true, status: 'completed' } });
    expect(waited.type).toBe(BATCH_LEASE_WAIT_TIMEOUT_TYPE);
    expect(waited.nonRetryable).toBe(true);
    expect(waited.message).toContain('waited for a running slot');
    expect(await row('b')).toMatchObject({ status: 'pending', attempts: 0 });
    expect(executor.started).toEqual(['a']);
  });

  test('a lease freed by another process is found by polling', async () => {
    await stores().batches.createBatch(batchInput({ limits: { maxLiveItems: 10, maxRunningItems: 1, maxAttempts: 3 } }), { maxItems: MAX_ITEMS });
    await stores().batches.acquireItemLease('b1', 'a', 1, 60_000);
    const b = run(itemTry('b', { pollIntervalSeconds: 0.2 }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(executor.started).toEqual([]);
    // Given back by a worker elsewhere: nothing in this process wakes the waiter.
    await stores().batches.releaseItemLease('b1', 'a', 1);
    await until(() => executor.started.length === 1);
    executor.finish('b');
    await expect(b).resolves.toMatchObject({ result: RESULT });
  });

  test('an item of a cancelled batch is fenced: the try fails for good without running', async () => {
    await stores().batches.createBatch(batchInput(), { maxItems: MAX_ITEMS });
    await stores().batches.cancelBatch('b1', OWNER);
    const failure = await applicationFailureOf(run(itemTry('a')));
    expect(failure.type).toBe(BATCH_ITEM_FENCED_TYPE);
    expect(failure.message).toContain('cancelled');
    expect(executor.started).toEqual([]);
  });

  test('an input that does not validate fails for good, before the store', async () => {
    const failure = await applicationFailureOf(run({ ...itemTry('a'), leaseSeconds: 0 }));
    expect(failure.type).toBe(INVALID_INPUT_TYPE);
    expect(failure.message).toContain('leaseSeconds');
    expect(executor.started).toEqual([]);
  });
});
