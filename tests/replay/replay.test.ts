import { Worker } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { workflowBundle } from '../../src/worker/create-workers';
import { readHistory, readManifest } from './fixtures';

const fixtures = readManifest();

test('the manifest lists at least the demo history', () => {
  expect(fixtures.map((f) => f.file)).toContain('demo-lead-run.json');
});

test.each(fixtures)('recorded history $file replays on the current workflow code', async (fixture) => {
  await expect(
    Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, readHistory(fixture), fixture.workflowId),
  ).resolves.toBeUndefined();
});

test('a history whose command sequence differs from the code fails replay with a determinism error', async () => {
  const fixture = fixtures[0]!;
  const history = readHistory(fixture) as { events: Array<Record<string, { activityType?: { name: string } } | undefined>> };
  // Pretend an older version scheduled a different activity where the code schedules runSubagent.
  const scheduled = history.events.find(
    (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'runSubagent',
  )!.activityTaskScheduledEventAttributes!;
  scheduled.activityType = { name: 'runSubagentV0' };
  await expect(
    Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history, fixture.workflowId),
  ).rejects.toBeInstanceOf(DeterminismViolationError);
});
