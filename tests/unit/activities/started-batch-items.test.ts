import { createBatchActivities } from '../../../src/activities/batch-items';
import type { BatchItemRuntime } from '../../../src/contracts';
import { INVALID_INPUT_TYPE } from '../../../src/contracts/failure-types';
import { batchInput, MAX_ITEMS, OWNER } from '../../store/conformance/batch-fixtures';
import { applicationFailureOf } from '../../support/application-failure-of';
import { storeOnlyDeps } from '../../support/store-only-deps';
import { useMemoryStores } from '../../support/memory-stores';

const RUNTIME: BatchItemRuntime = {
  batchId: 'b1',
  ownerId: OWNER,
  threadId: 't1',
  parentModel: 'm',
  subagent: { name: 'general-purpose', timeoutSeconds: 60, maxTurns: 5 },
  maxAttempts: 3,
  pollIntervalSeconds: 1,
  leaseSeconds: 30,
  availableSkills: null,
};

describe('startedBatchItems and cancelStartedBatchItems', () => {
  const stores = useMemoryStores();
  let activities: ReturnType<typeof createBatchActivities>;
  beforeEach(async () => {
    activities = createBatchActivities(storeOnlyDeps(stores()));
    await stores().batches.createBatch(batchInput(), { maxItems: MAX_ITEMS });
  });

  test('startedBatchItems counts the items up to the cursor by status, as stored', async () => {
    await stores().batches.markItemRunning('b1', 'a', 1);
    await stores().batches.markItemRunning('b1', 'c', 1);
    const started = await activities.startedBatchItems({ runtime: RUNTIME, throughKey: 'b', settle: false });
    expect(started).toEqual({ counts: { pending: 1, running: 1, completed: 0, failed: 0, cancelled: 0, timed_out: 0 }, settled: 0 });
  });

  test('an input that does not validate fails for good and names the field', async () => {
    const started = await applicationFailureOf(activities.startedBatchItems({ runtime: RUNTIME, throughKey: '', settle: false }));
    expect(started.type).toBe(INVALID_INPUT_TYPE);
    expect(started.message).toContain('throughKey');
    const cancelled = await applicationFailureOf(activities.cancelStartedBatchItems({ batchId: 'b1', throughKey: '' }));
    expect(cancelled.type).toBe(INVALID_INPUT_TYPE);
    expect(cancelled.message).toContain('throughKey');
    const noRuntime = await applicationFailureOf(activities.startedBatchItems({ throughKey: 'b', settle: false } as never));
    expect(noRuntime.message).toContain('runtime');
  });
});
