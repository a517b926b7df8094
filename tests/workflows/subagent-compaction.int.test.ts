import { useTemporal } from '../support/use-temporal';

const temporal = useTemporal();

const TOOL_TURNS = 8;

test('compaction keeps the summary outside the messages and projects it; no request starts with an assistant or tool message', async () => {
  const turns = [
    ...Array.from({ length: TOOL_TURNS }, (_, i) => ({ content: `step ${i}`, tool_calls: [{ name: 'ls', args: { path: `dir-${i}` } }] })),
    { content: 'all directories checked' },
  ];
  const harness = await temporal.start(
    {
      lead: [{ tool_calls: [{ name: 'task', args: { description: 'Walk dirs', prompt: 'Walk every directory', subagent_type: 'general-purpose' } }] }, { content: 'ok' }],
      subagents: [{ match: '*', turns }],
    },
    { summarization: { enabled: true, trigger: { messages: 6 }, keep: { messages: 2 } } },
  );
  const { state } = await harness.run({ message: 'go', threadId: 'compaction', runId: 'run-1' });
  expect(state.tasks.map((t) => [t.status, t.resultBrief])).toEqual([['completed', 'all directories checked']]);

  const requests = harness.recorder.requests.filter((r) => !r.tags.includes('lead'));
  const summarizer = requests.filter((r) => r.messages[0]?.text.includes('You compact the working history'));
  const agent = requests.filter((r) => !summarizer.includes(r));
  expect(agent).toHaveLength(TOOL_TURNS + 1);
  expect(summarizer.length).toBeGreaterThan(0);

  const compacted = agent.filter((r) => r.messages.some((m) => m.text.includes('## Conversation summary so far')));
  expect(compacted.length).toBeGreaterThan(0);
  for (const r of agent) {
    expect(r.messages[0]?.type).toBe('system');
    // What follows the system message is always a human message (the hidden data or the task).
    expect(r.messages[1]?.type).toBe('human');
    expect(r.messages.filter((m) => m.type === 'system')).toHaveLength(1);
  }
  const data = compacted[compacted.length - 1]!.messages[1]!;
  expect(data.additional_kwargs).toMatchObject({ hide_from_ui: true, durable_context_data: true });
  expect(data.text).toMatch(/## Conversation summary so far\n\(scripted summary of \d+ transcript lines\)/);
  // Compaction shrank what the model saw: the last request holds far fewer messages than the run made.
  expect(agent[agent.length - 1]!.messages.length).toBeLessThan(6);

  // Every step was captured exactly once despite the history rewrites.
  const steps = await harness.stores.events.listEvents({ runId: 'run-1', eventTypes: ['subagent.step'] });
  expect(steps).toHaveLength(TOOL_TURNS * 2 + 1);
  expect(steps.map((s) => (s.payload as { message_index: number }).message_index)).toEqual(Array.from({ length: TOOL_TURNS * 2 + 1 }, (_, i) => i + 1));
});
