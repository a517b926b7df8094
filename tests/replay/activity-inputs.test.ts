import { defaultPayloadConverter } from '@temporalio/common';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { ACTIVITY_INPUT_SCHEMAS } from '../../src/activities/activity-input-schemas';
import { formatZodIssues } from '../../src/contracts';
import { readHistory, readManifest } from './fixtures';

/** Every activity input the fixtures recorded (local activities record their results only). */
function scheduledInputs(): Array<{ file: string; activity: string; input: unknown }> {
  return readManifest().flatMap((fixture) =>
    (historyFromJSON(readHistory(fixture)).events ?? []).flatMap((event) => {
      const scheduled = event.activityTaskScheduledEventAttributes;
      if (!scheduled) return [];
      const activity = scheduled.activityType?.name ?? '';
      return (scheduled.input?.payloads ?? []).map((payload) => ({ file: fixture.file, activity, input: defaultPayloadConverter.fromPayload(payload) }));
    }),
  );
}

const recorded = scheduledInputs();

test('the fixtures record inputs of the lead, subagent and batch activities', () => {
  // Local activities (admission, outcome writes and item starts of newer eras) record no input.
  expect([...new Set(recorded.map((r) => r.activity))].sort()).toEqual(
    expect.arrayContaining([
      'admitSubagents',
      'cancelBatchItems',
      'closeToolCalls',
      'finishBatch',
      'leadModelStep',
      'leadModelStepWithOutcomes',
      'loadBatchProgress',
      'nextBatchItems',
      'prepareLeadBatch',
      'recordClarification',
      'recordTaskEnd',
      'recordToolOutcome',
      'rewriteLeadTurn',
      'runBatchItem',
      'runLeadTool',
      'runSubagent',
      'startedBatchItems',
    ]),
  );
});

// An activity a run scheduled before a deploy runs on the new worker, with the input older code built.
test('every recorded activity input, of every era, passes the schema its activity parses it with', () => {
  const refused = recorded.flatMap(({ file, activity, input }) => {
    if (!(activity in ACTIVITY_INPUT_SCHEMAS)) return [`${file}: ${activity} parses no input`];
    const parsed = ACTIVITY_INPUT_SCHEMAS[activity as keyof typeof ACTIVITY_INPUT_SCHEMAS].safeParse(input);
    return parsed.success ? [] : [`${file}: ${activity}: ${formatZodIssues(parsed.error.issues, '(input)')}`];
  });
  expect(refused).toEqual([]);
});
