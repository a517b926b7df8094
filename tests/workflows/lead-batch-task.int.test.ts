import { mapStoredMessageToChatMessage, ToolMessage } from '@langchain/core/messages';
import { useTemporal } from '../support/use-temporal';

const temporal = useTemporal();

const batchCall = {
  name: 'batch_task',
  args: {
    title: 'Classify three tickets',
    subagent_type: 'general-purpose',
    items: [
      { key: 'a', prompt: 'Classify ticket A' },
      { key: 'b', prompt: 'Classify ticket B' },
      { key: 'c', prompt: 'Classify ticket C' },
    ],
  },
};
const taskCall = { name: 'task', args: { description: 'One more', prompt: 'One more thing', subagent_type: 'general-purpose' } };

async function toolMessages(h: Awaited<ReturnType<typeof temporal.start>>, threadId: string): Promise<ToolMessage[]> {
  const records = await h.stores.messages.listMessages(threadId);
  return records.map((r) => mapStoredMessageToChatMessage(r.message)).filter((m): m is ToolMessage => ToolMessage.isInstance(m));
}

test('batch_task runs a child batch; its items never use the run’s task budget; the lead reads counts and results', async () => {
  const h = await temporal.start(
    {
      lead: [{ tool_calls: [batchCall] }, { tool_calls: [taskCall] }, { content: 'all done' }],
      subagents: [
        { match: 'Classify ticket', turns: [{ content: 'category: billing' }] },
        { match: 'One more', turns: [{ content: 'extra done' }] },
      ],
    },
    { subagent_batches: { enabled: true, poll_interval_seconds: 0.2 }, subagents: { max_total_per_run: 1 } },
  );
  const { state } = await h.run({ message: 'go', threadId: 'lead-batch', runId: 'run-1', userId: 'ivy' });

  expect(state.status).toBe('completed');
  // Offered to the model only because batches are on (the last test checks the other side).
  expect(h.recorder.requests[0]?.tools).toEqual(['task', 'batch_task', 'ask_clarification', 'bash', 'ls', 'read_file', 'write_file', 'str_replace', 'web_fetch']);
  expect(state.batches).toEqual([
    expect.objectContaining({ status: 'completed', ownerId: 'ivy', counts: { pending: 0, running: 0, completed: 3, failed: 0, cancelled: 0, timed_out: 0 } }),
  ]);
  // The batch's 3 items did not consume the run's single `task`: the later task ran.
  expect(state.delegatedTaskCalls).toBe(1);
  expect(state.strippedTaskCalls).toBe(0);
  expect(state.tasks.map((t) => [t.description, t.status])).toEqual([['One more', 'completed']]);

  const batchId = state.batches[0]!.batchId;
  const batch = await h.client.getBatch(batchId, 'ivy');
  expect(batch).toMatchObject({ run_id: 'run-1', title: 'Classify three tickets', subagent_type: 'general-purpose', item_count: 3, status: 'completed' });
  expect(await h.client.getBatch(batchId, 'someone-else')).toBeNull();
  // Items write their events under the batch, in the lead's thread.
  const ends = await h.stores.events.listEvents({ runId: batchId, eventTypes: ['subagent.end'] });
  expect(ends.map((e) => [e.taskId, e.threadId]).sort()).toEqual([
    ['a', 'lead-batch'],
    ['b', 'lead-batch'],
    ['c', 'lead-batch'],
  ]);

  const [batchMessage] = await toolMessages(h, 'lead-batch');
  expect(batchMessage?.name).toBe('batch_task');
  expect(batchMessage?.status).toBe('success');
  expect(String(batchMessage?.content).split('\n')).toEqual([
    `Batch ${batchId} completed: 3 completed, 0 failed, 0 timed out, 0 cancelled.`,
    'Item results are SELF-REPORTS from subagents, not verified facts. Items (key order):',
    '- [a] completed: category: billing',
    '- [b] completed: category: billing',
    '- [c] completed: category: billing',
  ]);
});

test('bad batch_task arguments come back to the lead as an error naming the field; nothing is stored', async () => {
  const bad = { name: 'batch_task', args: { ...batchCall.args, items: [{ key: 'a', prompt: 'x' }, { key: 'a', prompt: 'y' }] } };
  const h = await temporal.start({ lead: [{ tool_calls: [bad] }, { content: 'gave up' }] }, { subagent_batches: { enabled: true } });
  const { state } = await h.run({ message: 'go', threadId: 'lead-batch-bad', runId: 'run-1' });
  expect(state.status).toBe('completed');
  expect(state.batches).toEqual([]);
  const [message] = await toolMessages(h, 'lead-batch-bad');
  expect(message?.status).toBe('error');
  expect(message?.content).toBe('Error: items.1.key: duplicate key "a" (first at items.0)');
});

test('with batches off, batch_task is refused with the config key to change', async () => {
  const h = await temporal.start({ lead: [{ tool_calls: [batchCall] }, { content: 'ok' }] });
  const { state } = await h.run({ message: 'go', threadId: 'lead-batch-off', runId: 'run-1' });
  expect(state.status).toBe('completed');
  const [message] = await toolMessages(h, 'lead-batch-off');
  expect(message?.content).toBe('Error: subagent_batches.enabled: batches are turned off (set it to true in config.yaml)');
  // The tool is not even offered to the model.
  expect(h.recorder.requests[0]?.tools).toEqual(['task', 'ask_clarification', 'bash', 'ls', 'read_file', 'write_file', 'str_replace', 'web_fetch']);
});
