import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { DeterminismViolationError } from '@temporalio/workflow';
import { WORKFLOW_TYPES } from '../../src/contracts';
import { replayWorkflowHistory } from '../../src/worker/replay-history';
import { readHistory, readManifest } from './fixtures';

const fixtures = readManifest();

test('the manifest lists at least the demo history', () => {
  expect(fixtures.map((f) => f.file)).toContain('demo-lead-run.json');
});

test('every workflow type has a recorded history', () => {
  const recorded = new Set(fixtures.map((f) => historyFromJSON(readHistory(f)).events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name));
  expect(Object.values(WORKFLOW_TYPES).filter((type) => !recorded.has(type))).toEqual([]);
});

test.each(fixtures)('recorded history $file replays on the current workflow code', async (fixture) => {
  await expect(replayWorkflowHistory(historyFromJSON(readHistory(fixture)), fixture.workflowId)).resolves.toBeUndefined();
});

test('a history whose command sequence differs from the code fails replay with a determinism error', async () => {
  const fixture = fixtures[0]!;
  const history = historyFromJSON(readHistory(fixture));
  // Pretend an older version scheduled a different activity where the code schedules runSubagent.
  const scheduled = history.events!.find((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'runSubagent')!
    .activityTaskScheduledEventAttributes!;
  scheduled.activityType = { name: 'runSubagentV0' };
  await expect(replayWorkflowHistory(history, fixture.workflowId)).rejects.toBeInstanceOf(DeterminismViolationError);
});
