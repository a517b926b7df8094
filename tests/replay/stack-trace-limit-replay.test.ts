import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { workflowBundle } from '../../src/worker/create-workers';
import { readHistory, readManifest } from './fixtures';

// `worker.workflow_stack_trace_limit` changes the bundle (a preloaded module sets the limit; replay.test.ts
// replays on the default's, 4). Stacks decide no command, so every history replays with no frames at all.
const fixtures = readManifest();

test.each(fixtures)('recorded history $file replays on a bundle with a stack trace limit of 0', async (fixture) => {
  const options = { workflowBundle: await workflowBundle({ stackTraceLimit: 0 }) };
  await expect(Worker.runReplayHistory(options, historyFromJSON(readHistory(fixture)), fixture.workflowId)).resolves.toBeUndefined();
});
