import { AIMessage, mapStoredMessageToChatMessage } from '@langchain/core/messages';
import { messageKeys } from '../../src/store';
import { SUBAGENT_LIMIT_NOTE } from '../../src/workflows/delegation-limit';
import type { Harness } from '../support/harness';
import { useTemporal } from '../support/use-temporal';

const temporal = useTemporal();

const task = (n: number) => ({ name: 'task', args: { description: `Job ${n}`, prompt: `Job ${n}: do it`, subagent_type: 'general-purpose' } });
const tasks = (from: number, count: number) => Array.from({ length: count }, (_, i) => task(from + i));
const answerAll = [{ match: '*', turns: [{ content: 'done' }] }];

async function storedLeadMessage(h: Harness, threadId: string, runId: string, turn: number): Promise<AIMessage> {
  const stored = await h.stores.messages.getMessage(threadId, messageKeys.ai(runId, turn));
  const message = stored && mapStoredMessageToChatMessage(stored);
  if (!message || !AIMessage.isInstance(message)) throw new Error('no stored lead message');
  return message;
}

test('5 task calls with a per-response limit of 3: the first 3 run, 2 are dropped silently', async () => {
  const harness = await temporal.start({ lead: [{ content: 'Fan out.', tool_calls: tasks(1, 5) }, { content: 'merged' }], subagents: answerAll });
  const { state } = await harness.run({ message: 'go', threadId: 'limit-response', runId: 'run-1' });
  expect(state.status).toBe('completed');
  expect(state.tasks.map((t) => t.description)).toEqual(['Job 1', 'Job 2', 'Job 3']);
  expect(state.strippedTaskCalls).toBe(2);
  expect(state.stopReason).toBeNull();

  const stored = await storedLeadMessage(harness, 'limit-response', 'run-1', 0);
  expect(stored.tool_calls?.map((c) => c.args.description)).toEqual(['Job 1', 'Job 2', 'Job 3']);
  // The provider's raw tool-call metadata is synced, so the next request is valid for strict providers.
  expect((stored.additional_kwargs.tool_calls as Array<{ id: string }>).map((c) => c.id)).toEqual(stored.tool_calls?.map((c) => c.id));
  expect(stored.content).toBe('Fan out.');
  expect(stored.response_metadata.finish_reason).toBe('tool_calls');
});

test('the run total (6) is used up over several responses: note, stop, subagent_limit_capped; a new run gets a fresh budget', async () => {
  const harness = await temporal.start(
    {
      lead: [{ tool_calls: tasks(1, 3) }, { tool_calls: tasks(4, 3) }, { content: 'One more batch.', tool_calls: tasks(7, 2) }, { content: 'never reached' }],
      subagents: answerAll,
    },
    { subagents: { max_total_per_run: 6 } },
  );
  const first = await harness.run({ message: 'go', threadId: 'limit-total', runId: 'run-1' });
  expect(first.state.status).toBe('completed');
  expect(first.state.tasks).toHaveLength(6);
  expect(first.state.strippedTaskCalls).toBe(2);
  expect(first.state.stopReason).toBe('subagent_limit_capped');
  expect(first.state.turn).toBe(2);
  const final = await storedLeadMessage(harness, 'limit-total', 'run-1', 2);
  expect(final.tool_calls).toEqual([]);
  expect(final.additional_kwargs.tool_calls).toBeUndefined();
  expect(final.response_metadata.finish_reason).toBe('stop');
  expect(final.content).toBe(`One more batch.\n\n${SUBAGENT_LIMIT_NOTE}`);
  expect(first.state.finalMessageBrief).toContain('subagent delegation limit');

  // Same thread, next run: earlier delegations do not consume its budget.
  const second = await harness.run({ message: 'again', threadId: 'limit-total', runId: 'run-2' });
  expect(second.state.tasks).toHaveLength(6);
  expect(second.state.stopReason).toBe('subagent_limit_capped');
  expect(second.state.tasks.every((t) => t.status === 'completed')).toBe(true);
});

test('a per-run request above the workers\' max_running is clamped (prompt and enforcement agree)', async () => {
  const harness = await temporal.start({ lead: [{ tool_calls: tasks(1, 4) }, { content: 'ok' }], subagents: answerAll }, { subagent_runtime: { max_running: 2 } });
  const { state } = await harness.run({ message: 'go', threadId: 'limit-clamp', runId: 'run-1', maxConcurrent: 64 });
  expect(state.tasks).toHaveLength(2);
  expect(state.strippedTaskCalls).toBe(2);
  const [prompt] = harness.recorder.leadSystemPrompts();
  expect(prompt).toContain('MAXIMUM 2 `task` CALLS PER RESPONSE');
});

test('max_running: 2 bounds subagents in flight across runs (measured)', async () => {
  const harness = await temporal.start(
    { lead: [{ tool_calls: tasks(1, 2) }, { content: 'ok' }], subagents: [{ match: '*', turns: [{ content: 'slow done', delay_ms: 400 }] }] },
    { subagent_runtime: { max_running: 2 } },
  );
  const h = harness;
  const runs = await Promise.all([1, 2, 3].map((i) => h.run({ message: 'go', threadId: `inflight-${i}`, runId: `run-${i}` })));
  expect(runs.flatMap((r) => r.state.tasks.map((t) => t.status))).toEqual(Array(6).fill('completed'));
  const spans = h.recorder.spans.filter((s) => !s.tags.includes('lead'));
  expect(spans).toHaveLength(6);
  // Highest number of subagent model calls in flight at any instant.
  const points = spans.flatMap((s) => [{ at: s.start, d: 1 }, { at: s.end, d: -1 }]).sort((a, b) => a.at - b.at || a.d - b.d);
  let inFlight = 0;
  let peak = 0;
  for (const p of points) peak = Math.max(peak, (inFlight += p.d));
  expect(peak).toBe(2);
});

test('the delegation ledger of the thread is rendered into the lead context as hidden data after the authority contract', async () => {
  const harness = await temporal.start({ lead: [{ tool_calls: [task(1)] }, { content: 'first answer' }], subagents: answerAll });
  await harness.run({ message: 'go', threadId: 'ledger-thread', runId: 'run-1' });
  await harness.run({ message: 'again', threadId: 'ledger-thread', runId: 'run-2' });
  const leadRequests = harness.recorder.requests.filter((r) => r.tags.includes('lead'));
  // Run 2's first request: one system message, then the hidden ledger data, then the transcript.
  const request = leadRequests[2]!;
  expect(request.messages.filter((m) => m.type === 'system')).toHaveLength(1);
  expect(request.messages[0]?.text).toContain('Durable context authority contract');
  const data = request.messages[1]!;
  expect(data.type).toBe('human');
  expect(data.additional_kwargs).toMatchObject({ hide_from_ui: true, durable_context_data: true });
  expect(data.text).toContain('## Work already delegated');
  expect(data.text).toContain('[completed] Job 1 (via general-purpose;');
  expect(data.text).toContain('-> done');
  // The user's message is framed as untrusted input in the request (the transcript keeps it as written).
  const userMessages = request.messages.filter((m) => m.type === 'human' && !m.additional_kwargs.hide_from_ui);
  expect(userMessages.map((m) => m.text)).toEqual(['go', '--- BEGIN USER INPUT ---\nagain\n--- END USER INPUT ---']);
  // Nothing was delegated before run 1's first step: no ledger block then.
  expect(leadRequests[0]?.messages.some((m) => m.additional_kwargs?.durable_context_data === true)).toBe(false);
});
