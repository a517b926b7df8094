import type { EnhancedStackTrace, StackTrace } from '@temporalio/workflow';
import type { Harness } from '../support/harness';
import { useTemporal, waitFor } from '../support/use-temporal';

// `worker.workflow_stack_trace_limit` bounds the frames the SDK records per workflow promise, which
// is what Temporal Web's Stack Trace tab shows (the `__enhanced_stack_trace` query). The default of
// 4 leaves each promise two frames; the tab joins the stacks of a waiting chain, so it must still
// name the line of our code a run waits on.

const temporal = useTemporal();

const asks = { lead: [{ tool_calls: [{ name: 'ask_clarification', args: { question: 'Which file?' } }] }, { content: 'done' }] };
const delegatesSlowly = {
  lead: [{ tool_calls: [{ name: 'task', args: { subagent_type: 'general-purpose', description: 'Slow', prompt: 'Take your time.' } }] }, { content: 'done' }],
  subagents: [{ match: '*', turns: [{ content: 'ok', delay_ms: 60_000 }] }],
};
const v8Limit = { worker: { shutdown_grace_seconds: 0, workflow_stack_trace_limit: null } };

/** The stacks of a lead run waiting once `waitEvent` was stored, as the Stack Trace tab reads them. */
async function waitingRunStacks(harness: Harness, threadId: string, waitEvent: string): Promise<StackTrace[]> {
  const started = await harness.client.startRun({ message: 'read my file', threadId, runId: 'run-1' });
  await waitFor(async () => (await harness.stores.events.listEvents({ runId: 'run-1', eventTypes: [waitEvent] })).length === 1);
  const trace = await started.handle.query<EnhancedStackTrace>('__enhanced_stack_trace');
  await started.handle.cancel();
  return trace.stacks;
}

const deepest = (stacks: readonly StackTrace[]): number => Math.max(...stacks.map((s) => s.locations.length));

/** Whether the stacks hold a frame in our workflow file `file` (of `functionName`, when given). */
const hasFrame = (stacks: readonly StackTrace[], file: string, functionName?: string): boolean =>
  stacks.some((s) => s.locations.some((l) => l.file_path?.endsWith(`src/workflows/${file}`) === true && (functionName === undefined || l.function_name === functionName)));

test("with V8's own limit (null) a waiting run's stacks hold more frames, into the lead run workflow", async () => {
  const stacks = await waitingRunStacks(await temporal.start(asks, v8Limit), 'thread-v8', 'clarification.asked');
  expect(deepest(stacks)).toBeGreaterThan(2);
  expect(hasFrame(stacks, 'lead-clarification.ts', 'awaitAnswer')).toBe(true);
  expect(hasFrame(stacks, 'lead-run-workflow.ts')).toBe(true);
});

test('by default each stack holds two frames, and the tab still names where a run waits for an answer', async () => {
  const stacks = await waitingRunStacks(await temporal.start(asks), 'thread-answer', 'clarification.asked');
  expect(deepest(stacks)).toBe(2);
  expect(hasFrame(stacks, 'lead-clarification.ts', 'awaitAnswer')).toBe(true);
});

test('by default the tab still names where a run waits for its subagent task', async () => {
  const stacks = await waitingRunStacks(await temporal.start(delegatesSlowly), 'thread-task', 'subagent.start');
  expect(deepest(stacks)).toBe(2);
  expect(hasFrame(stacks, 'run-task.ts', 'executeOnce')).toBe(true);
});
