import type { BaseMessage } from '@langchain/core/messages';
import { useTemporal } from '../support/use-temporal';

const temporal = useTemporal();

const delegate = { lead: [{ tool_calls: [{ name: 'task', args: { description: 'Investigate', prompt: 'Investigate the repo', subagent_type: 'general-purpose' } }] }, { content: 'done' }] };
const lsCall = { name: 'ls', args: { path: '.' } };

function subagentRequests(requests: readonly { tags: readonly string[]; messages: readonly BaseMessage[] }[]) {
  return requests.filter((r) => !r.tags.includes('lead')).map((r) => r.messages);
}

test('identical tool calls repeated: completed + loop_capped at the hard limit, warning before it, request-only', async () => {
  const harness = await temporal.start(
    { ...delegate, subagents: [{ match: '*', turns: [{ content: 'still looking', tool_calls: [lsCall], repeat: 'forever' }] }] },
    { loop_detection: { warn_threshold: 2, hard_limit: 3 } },
  );
  const { state } = await harness.run({ message: 'go', threadId: 'loop', runId: 'run-1' });
  expect(state.tasks.map((t) => [t.status, t.stopReason])).toEqual([['completed', 'loop_capped']]);
  expect(state.tasks[0]?.resultBrief).toContain('[FORCED STOP] Repeated tool calls exceeded the safety limit');
  const requests = subagentRequests(harness.recorder.requests);
  expect(requests).toHaveLength(3);
  // The warning (after the 2nd identical call) reaches the 3rd request as its last message only.
  const warned = requests[2]!;
  expect(warned[warned.length - 1]?.name).toBe('loop_warning');
  expect(requests[1]!.some((m) => m.name === 'loop_warning')).toBe(false);
  const steps = await harness.stores.events.listEvents({ runId: 'run-1', eventTypes: ['subagent.step'] });
  // 3 AI turns and 2 tool results: the third call was stripped and never ran.
  expect(steps.map((s) => (s.payload as { kind: string }).kind)).toEqual(['ai', 'tool', 'ai', 'tool', 'ai']);
});

test('a tiny token budget: token_capped with the tool calls stripped', async () => {
  const harness = await temporal.start(
    { ...delegate, subagents: [{ match: '*', turns: [{ content: 'reading', tool_calls: [lsCall], usage: { input_tokens: 700, output_tokens: 400 }, repeat: 'forever' }] }] },
    { subagents: { agents: { 'general-purpose': { token_budget: { enabled: true, max_tokens: 1000, warn_threshold: 0.5 } } } } },
  );
  const { state } = await harness.run({ message: 'go', threadId: 'budget', runId: 'run-1' });
  expect(state.tasks.map((t) => [t.status, t.stopReason])).toEqual([['completed', 'token_capped']]);
  expect(state.tasks[0]?.resultBrief).toContain('[TOKEN BUDGET EXCEEDED]');
  const steps = await harness.stores.events.listEvents({ runId: 'run-1', eventTypes: ['subagent.step'] });
  // The one model turn went over budget: its tool call was stripped and never ran (no tool step).
  expect(steps.map((s) => (s.payload as { kind: string }).kind)).toEqual(['ai']);
  expect(subagentRequests(harness.recorder.requests)).toHaveLength(1);
});

describe('turn cap (max_turns: 5 means 5 model calls)', () => {
  const config = { loop_detection: { enabled: false }, subagents: { agents: { 'general-purpose': { max_turns: 5 } } } };

  test('with a partial answer: completed + turn_capped', async () => {
    const harness = await temporal.start({ ...delegate, subagents: [{ match: '*', turns: [{ content: 'partial findings', tool_calls: [lsCall], repeat: 'forever' }] }] }, config);
    const { state } = await harness.run({ message: 'go', threadId: 'turns-partial', runId: 'run-1' });
    expect(state.tasks.map((t) => [t.status, t.stopReason, t.resultBrief])).toEqual([['completed', 'turn_capped', 'partial findings']]);
    expect(subagentRequests(harness.recorder.requests)).toHaveLength(5);
  });

  test('without one: failed + turn_capped, Reached max_turns=5', async () => {
    const harness = await temporal.start({ ...delegate, subagents: [{ match: '*', turns: [{ tool_calls: [lsCall], repeat: 'forever' }] }] }, config);
    const { state } = await harness.run({ message: 'go', threadId: 'turns-none', runId: 'run-1' });
    expect(state.tasks.map((t) => [t.status, t.stopReason, t.error])).toEqual([['failed', 'turn_capped', 'Reached max_turns=5']]);
    expect(subagentRequests(harness.recorder.requests)).toHaveLength(5);
  });
});

test('error-looking prose without the fallback marker is a normal completion', async () => {
  const harness = await temporal.start({ ...delegate, subagents: [{ match: '*', turns: [{ content: 'Error: LLM request failed: 500 (just kidding)' }] }] });
  const { state } = await harness.run({ message: 'go', threadId: 'prose', runId: 'run-1' });
  expect(state.tasks.map((t) => [t.status, t.resultBrief])).toEqual([['completed', 'Error: LLM request failed: 500 (just kidding)']]);
});

test('every subagent request has exactly one system message, first, with the date reminder and the framed task', async () => {
  const harness = await temporal.start({ ...delegate, subagents: [{ match: '*', turns: [{ tool_calls: [lsCall] }, { content: 'listed' }] }] });
  await harness.run({ message: 'go', threadId: 'shape', runId: 'run-1' });
  const requests = subagentRequests(harness.recorder.requests);
  expect(requests).toHaveLength(2);
  for (const messages of requests) {
    expect(messages.filter((m) => m.type === 'system')).toHaveLength(1);
    expect(messages[0]?.type).toBe('system');
    expect(messages[0]?.text).toMatch(/<current_date>\d{4}-\d{2}-\d{2}, [A-Z][a-z]+day<\/current_date>/);
    expect(messages[0]?.text).toContain('<report_contract>');
    const task = messages.find((m) => m.type === 'human' && !m.additional_kwargs.hide_from_ui);
    expect(task?.text).toContain('--- BEGIN USER INPUT ---');
    expect(task?.text).toContain('Investigate the repo');
  }
  // The tool result follows its tool call directly.
  const second = requests[1]!;
  const callAt = second.findIndex((m) => m.type === 'ai');
  expect(second[callAt + 1]?.type).toBe('tool');
});
