import type { EnhancedStackTrace, StackTrace } from '@temporalio/workflow';
import type { Harness } from '../support/harness';
import { useTemporal, waitFor } from '../support/use-temporal';

// `worker.workflow_stack_trace_limit` bounds the frames the SDK records per workflow promise, which
// is what Temporal Web's Stack Trace tab shows (the `__enhanced_stack_trace` query).

const temporal = useTemporal();

const asks = { lead: [{ tool_calls: [{ name: 'ask_clarification', args: { question: 'Which file?' } }] }, { content: 'done' }] };

/** The stacks of a lead run waiting for an answer, as the Stack Trace tab reads them. */
async function waitingRunStacks(harness: Harness, threadId: string): Promise<StackTrace[]> {
  const started = await harness.client.startRun({ message: 'read my file', threadId, runId: 'run-1' });
  await waitFor(async () => (await harness.stores.events.listEvents({ runId: 'run-1', eventTypes: ['clarification.asked'] })).length === 1);
  const trace = await started.handle.query<EnhancedStackTrace>('__enhanced_stack_trace');
  await started.handle.cancel();
  return trace.stacks;
}

const inLeadRunWorkflow = (stacks: readonly StackTrace[]): boolean =>
  stacks.some((s) => s.locations.some((l) => l.file_path?.endsWith('src/workflows/lead-run-workflow.ts') === true));

test("by default a waiting run's stacks reach into the lead run workflow's own code", async () => {
  const stacks = await waitingRunStacks(await temporal.start(asks), 'thread-default');
  expect(stacks.length).toBeGreaterThan(0);
  expect(Math.max(...stacks.map((s) => s.locations.length))).toBeGreaterThan(2);
  expect(inLeadRunWorkflow(stacks)).toBe(true);
});

test("with a limit of 4 the deepest stack holds two frames: the SDK's hook takes the other two", async () => {
  const stacks = await waitingRunStacks(await temporal.start(asks, { worker: { shutdown_grace_seconds: 0, workflow_stack_trace_limit: 4 } }), 'thread-limit-4');
  expect(stacks.length).toBeGreaterThan(0);
  expect(Math.max(...stacks.map((s) => s.locations.length))).toBe(2);
});
