import { ApplicationFailure } from '@temporalio/common';
import { createLeadActivities } from '../../../src/activities';
import { ACTIVITY_INPUT_SCHEMAS } from '../../../src/activities/activity-input-schemas';
import { INVALID_INPUT_TYPE } from '../../../src/contracts/failure-types';
import { storeOnlyDeps } from '../../support/store-only-deps';
import { useMemoryStores } from '../../support/memory-stores';

const THREAD = 'thread-1';
const RUN = 'run-1';

type Activities = ReturnType<typeof createLeadActivities>;

/**
 * Every activity of the lead queue, called with an input its schema refuses: the field to name.
 * Inputs come from workflow histories, which any Temporal client can start: a malformed one must fail
 * the activity for good, with every field named, before anything is read or written.
 */
const REFUSED: ReadonlyArray<{ readonly activity: keyof Activities; readonly input: unknown; readonly field: string }> = [
  { activity: 'leadModelStep', input: { threadId: THREAD, runId: RUN, userId: 'u', agentName: 'lead', modelName: 'm', turn: -1, message: null, toolOutcomes: [], limits: {}, catalog: [] }, field: 'turn' },
  {
    activity: 'leadModelStepWithOutcomes',
    input: { threadId: THREAD, runId: RUN, userId: 'u', agentName: 'lead', modelName: 'm', turn: 1, message: null, toolOutcomes: [], limits: {}, catalog: [], outcomes: [] },
    field: 'outcomes',
  },
  { activity: 'admitSubagents', input: { requested: 0 }, field: 'requested' },
  { activity: 'rewriteLeadTurn', input: { threadId: THREAD, runId: RUN, turn: 0, modelName: 'm', keptToolCallIds: ['  '], note: null }, field: 'keptToolCallIds' },
  { activity: 'prepareLeadBatch', input: { threadId: THREAD, runId: RUN, userId: 'u', turn: 0, modelName: 'm', catalog: [] }, field: 'toolCallId' },
  { activity: 'recordTaskEnd', input: { threadId: THREAD, runId: RUN, task: { taskId: '0.0' } }, field: 'task.status' },
  { activity: 'closeToolCalls', input: { threadId: THREAD, runId: RUN, calls: [], unseenTurn: null, text: '' }, field: 'text' },
  { activity: 'runLeadTool', input: { threadId: THREAD, runId: RUN, userId: 'u', turn: 0, callId: '0.0', toolCallId: 'c', allowedTools: [] }, field: 'toolName' },
  { activity: 'recordClarification', input: { threadId: THREAD, runId: RUN, phase: 'guessed' }, field: 'phase' },
  { activity: 'nextBatchItems', input: { batchId: 'b', afterKey: null, limit: 0 }, field: 'limit' },
  { activity: 'loadBatchProgress', input: { batchId: 'b' }, field: 'ownerId' },
  { activity: 'markBatchItemRunning', input: { batchId: 'b', key: 'k', attempt: 0, at: 'now' }, field: 'attempt' },
  { activity: 'recordBatchItemAttempt', input: { batchId: 'b', key: 'k', attempt: 1, outcome: 'shrugged', error: null, at: 'now' }, field: 'outcome' },
  { activity: 'finishBatchItem', input: { key: 'k', status: 'completed' }, field: 'runtime' },
  { activity: 'cancelBatchItems', input: { batchId: 'b', ownerId: '' }, field: 'ownerId' },
  { activity: 'finishBatch', input: { batchId: 'b', status: 'running' }, field: 'status' },
];

describe('lead-queue activities validate their input', () => {
  const stores = useMemoryStores();
  let activities: Activities;
  beforeEach(async () => {
    activities = createLeadActivities(storeOnlyDeps(stores()));
  });

  test('every activity of the queue has its input schema in the shared table', () => {
    expect(Object.keys(activities).filter((name) => !(name in ACTIVITY_INPUT_SCHEMAS))).toEqual([]);
  });

  test('every activity of the queue has a refused input here, besides those tested with their own suites', () => {
    const ownSuites = ['recordToolOutcome', 'startBatchItemAttempt', 'startedBatchItems', 'cancelStartedBatchItems'];
    expect(Object.keys(activities).filter((name) => !ownSuites.includes(name)).sort()).toEqual(REFUSED.map((r) => r.activity).sort());
  });

  test.each(REFUSED)('$activity refuses a bad $field, for good and before any write', async ({ activity, input, field }) => {
    const call = activities[activity] as (raw: unknown) => Promise<unknown>;
    const refused = call(input);
    await expect(refused).rejects.toBeInstanceOf(ApplicationFailure);
    await expect(refused).rejects.toMatchObject({ type: INVALID_INPUT_TYPE, nonRetryable: true, message: expect.stringMatching(new RegExp(`^${activity} input: .*${field.replace('.', '\\.')}`)) });
    expect(await stores().messages.listMessages(THREAD)).toEqual([]);
    expect(await stores().events.listEvents({ runId: RUN, threadId: THREAD })).toEqual([]);
  });
});
