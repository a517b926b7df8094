import { mapStoredMessageToChatMessage, ToolMessage } from '@langchain/core/messages';
import type { NewRunEvent } from '../../src/store';
import { useTemporal } from '../support/use-temporal';

const temporal = useTemporal();

test('a store that refuses the terminal write five times in a row (the old limit of attempts) delays the run, never fails it; one subagent.end', async () => {
  const harness = await temporal.start({
    lead: [{ tool_calls: [{ name: 'task', args: { description: 'Job', prompt: 'Job: do it', subagent_type: 'general-purpose' } }] }, { content: 'done' }],
    subagents: [{ match: '*', turns: [{ content: 'result' }] }],
  });
  // The activities share this store object: its terminal-event writes fail as during a restart.
  const events = harness.stores.events;
  const putBatch = events.putBatch.bind(events);
  let refused = 0;
  events.putBatch = async (batch: readonly NewRunEvent[]) => {
    if (batch.some((e) => e.event === 'subagent.end') && refused < 5) {
      refused += 1;
      throw new Error('connection refused (store restarting)');
    }
    return putBatch(batch);
  };
  const { state } = await harness.run({ message: 'go', threadId: 'thread-outage', runId: 'run-1' });
  expect(refused).toBe(5);
  expect(state).toMatchObject({ status: 'completed', finalMessageBrief: 'done' });
  expect(state.tasks.map((t) => t.status)).toEqual(['completed']);
  expect(await harness.stores.events.listEvents({ runId: 'run-1', eventTypes: ['subagent.end'] })).toHaveLength(1);
  const answers = (await harness.stores.messages.listMessages('thread-outage')).map((r) => mapStoredMessageToChatMessage(r.message)).filter((m) => ToolMessage.isInstance(m));
  expect(answers.map((m) => m.content)).toEqual(['Task Succeeded. Result: result']);
}, 120_000);
