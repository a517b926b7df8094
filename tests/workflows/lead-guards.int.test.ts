import { HumanMessage } from '@langchain/core/messages';
import { SA_STOP_REASONS } from '../../src/contracts';
import { buildRunReport } from '../../src/cli/run-report';
import { useTemporal } from '../support/use-temporal';

const temporal = useTemporal();

const ls = { name: 'ls', args: { path: '.' } };

/** The guard warnings (named human messages) at the end of a recorded request. */
function warningsOf(messages: readonly { getType(): string; name?: string; content: unknown }[]): Array<[string, string]> {
  return messages.filter((m) => HumanMessage.isInstance(m) && (m.name === 'loop_warning' || m.name === 'budget_warning')).map((m) => [m.name ?? '', String(m.content)]);
}

test('a lead model that errors twice with a transient error, then answers, completes with 3 calls', async () => {
  const harness = await temporal.start({
    lead: [{ error: '503 upstream unavailable' }, { error: '503 upstream unavailable' }, { content: 'third time lucky' }],
  });
  const { state } = await harness.run({ message: 'go', threadId: 'guard-retry', runId: 'run-1' });
  expect(state).toMatchObject({ status: 'completed', stopReason: null, finalMessageBrief: 'third time lucky' });
  expect(harness.recorder.requests.filter((r) => r.tags.includes('lead'))).toHaveLength(3);
});

test('a provider error that is not transient fails the run at once with the provider message, no blind retries', async () => {
  const harness = await temporal.start({ lead: [{ error: '400 invalid request: the prompt is malformed', repeat: 'forever' }] });
  const { state, workflowId } = await harness.run({ message: 'go', threadId: 'guard-fatal', runId: 'run-1' });
  expect(state.status).toBe('failed');
  expect(state.error).toBe('400 invalid request: the prompt is malformed');
  expect(harness.recorder.requests).toHaveLength(1);
  // The thread ends on the fallback answer (marked), so the next run starts from a whole thread.
  const report = await buildRunReport(harness.stores, state, workflowId);
  expect(report.final_message).toBe('LLM request failed: 400 invalid request: the prompt is malformed');
});

test.each([
  ['length', 'model_length_capped'],
  ['content_filter', 'safety_capped'],
])('a response with finish reason %s ends the run with stop reason %s, its calls not run', async (finishReason, stopReason) => {
  const harness = await temporal.start({ lead: [{ content: 'The answer is cut', tool_calls: [ls], finish_reason: finishReason }, { content: 'unused' }] });
  const { state, workflowId } = await harness.run({ message: 'go', threadId: `guard-${finishReason}`, runId: 'run-1' });
  expect(state).toMatchObject({ status: 'completed', stopReason, finalMessageBrief: 'The answer is cut', leadTools: [] });
  const report = await buildRunReport(harness.stores, state, workflowId);
  expect(report.stop_reason).toBe(stopReason);
  const description = await temporal.env().client.workflow.getHandle(workflowId).describe();
  expect(description.typedSearchAttributes.get(SA_STOP_REASONS)).toEqual([stopReason]);
});

test('loop detection warns the lead after 3 identical responses and stops it at 5: loop_capped', async () => {
  const harness = await temporal.start({ lead: [{ content: 'Looking again.', tool_calls: [ls], repeat: 'forever' }] });
  const { state, workflowId } = await harness.run({ message: 'go', threadId: 'guard-loop', runId: 'run-1' });
  expect(state.status).toBe('completed');
  expect(state.stopReason).toBe('loop_capped');
  // Four calls ran; the fifth response was stripped and became the final answer.
  expect(state.leadTools.map((t) => t.status)).toEqual(['completed', 'completed', 'completed', 'completed']);
  expect(state.finalMessageBrief).toMatch(/^Looking again\.\n\n\[FORCED STOP\] Repeated tool calls exceeded the safety limit \(5 identical/);
  const requests = harness.recorder.requests.filter((r) => r.tags.includes('lead'));
  expect(requests).toHaveLength(5);
  // The warning reached the 4th request only, after the 3rd identical response, as its last message.
  expect(requests.map((r) => warningsOf(r.messages).length)).toEqual([0, 0, 0, 1, 0]);
  expect(requests[3]?.messages.at(-1)).toMatchObject({ name: 'loop_warning' });
  // Warnings are request-only: the thread never stores them.
  const stored = await harness.stores.messages.listMessages('guard-loop');
  expect(JSON.stringify(stored)).not.toContain('loop_warning');
  const description = await temporal.env().client.workflow.getHandle(workflowId).describe();
  expect(description.typedSearchAttributes.get(SA_STOP_REASONS)).toEqual(['loop_capped']);
});

test('the lead token budget warns at its threshold and stops at the hard limit: token_capped', async () => {
  const turn = (n: number) => ({ tool_calls: [{ name: 'ls', args: { path: `dir-${n}` } }], usage: { input_tokens: 250, output_tokens: 50 } });
  const harness = await temporal.start(
    { lead: [turn(1), turn(2), turn(3), turn(4), { content: 'unused' }] },
    { agents: { default: { token_budget: { enabled: true, max_tokens: 1000, warn_threshold: 0.5, hard_stop_threshold: 1.0 } } } },
  );
  const { state } = await harness.run({ message: 'go', threadId: 'guard-budget', runId: 'run-1' });
  expect(state).toMatchObject({ status: 'completed', stopReason: 'token_capped' });
  expect(state.leadUsage).toEqual({ input_tokens: 1000, output_tokens: 200, total_tokens: 1200 });
  expect(state.leadTools).toHaveLength(3);
  expect(state.finalMessageBrief).toContain('[TOKEN BUDGET EXCEEDED]');
  const requests = harness.recorder.requests.filter((r) => r.tags.includes('lead'));
  expect(requests.map((r) => warningsOf(r.messages).map(([name]) => name))).toEqual([[], [], ['budget_warning'], []]);
  expect(warningsOf(requests[2]?.messages ?? [])[0]?.[1]).toContain('[TOKEN BUDGET WARNING] You have used 600 of your 1,000 total token budget (60%)');
});
