import { ApplicationFailure } from '@temporalio/common';
import type { ActivityDeps } from '../../../src/activities/activity-deps';
import { createBatchActivities } from '../../../src/activities/batch-items';
import { parseConfigText } from '../../../src/config';
import type { StartBatchItemAttemptInput } from '../../../src/contracts';
import { INVALID_INPUT_TYPE } from '../../../src/contracts/failure-types';
import { batchInput, MAX_ITEMS, OWNER } from '../../store/conformance/batch-fixtures';
import { useMemoryStores } from '../../support/memory-stores';

const AT = '2025-01-01T00:00:00.000Z';

describe('startBatchItemAttempt', () => {
  const stores = useMemoryStores();
  let backlog: number;
  let activities: ReturnType<typeof createBatchActivities>;
  beforeEach(async () => {
    backlog = 0;
    const deps: ActivityDeps = {
      config: parseConfigText('subagent_runtime: { admission_policy: reject }', null),
      stores: stores(),
      createModel: () => {
        throw new Error('no model here');
      },
      subagentBacklog: async () => backlog,
    };
    activities = createBatchActivities(deps);
    await stores().batches.createBatch(batchInput(), { maxItems: MAX_ITEMS });
  });

  const item = async (key: string) => stores().batches.getItem('b1', OWNER, key);

  test('admitted: marks the item running in that attempt', async () => {
    const started = await activities.startBatchItemAttempt({ batchId: 'b1', key: 'a', attempt: 1, at: AT });
    expect(started.admission).toMatchObject({ policy: 'reject', admitted: 1, rejection: null });
    expect(started.mark).toEqual({ written: true, status: 'running' });
    expect(await item('a')).toMatchObject({ status: 'running', attempts: 1, started_at: AT });
  });

  test('refused: no mark, the row is left as it was', async () => {
    backlog = 2;
    const started = await activities.startBatchItemAttempt({ batchId: 'b1', key: 'a', attempt: 1, at: AT });
    expect(started.admission).toMatchObject({ admitted: 0, rejection: expect.stringContaining('capacity is full') });
    expect(started.mark).toBeNull();
    expect(await item('a')).toMatchObject({ status: 'pending', attempts: 0 });
  });

  test('a terminal item is not marked: the mark says what the row holds', async () => {
    await stores().batches.cancelBatch('b1', OWNER);
    const started = await activities.startBatchItemAttempt({ batchId: 'b1', key: 'b', attempt: 1, at: AT });
    expect(started.mark).toEqual({ written: false, status: 'cancelled' });
  });

  test('an input that does not validate fails for good, before admission or the store', async () => {
    let asked = 0;
    const deps: ActivityDeps = {
      config: parseConfigText('{}', null),
      stores: stores(),
      createModel: () => {
        throw new Error('no model here');
      },
      subagentBacklog: async () => {
        asked += 1;
        return 0;
      },
    };
    const bad = { batchId: 'b1', key: ' ', attempt: 0, at: AT } as StartBatchItemAttemptInput;
    const err = await createBatchActivities(deps)
      .startBatchItemAttempt(bad)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApplicationFailure);
    expect(err).toMatchObject({ type: INVALID_INPUT_TYPE, nonRetryable: true });
    expect((err as Error).message).toContain('attempt');
    expect(asked).toBe(0);
    expect(await item('a')).toMatchObject({ status: 'pending' });
  });
});
