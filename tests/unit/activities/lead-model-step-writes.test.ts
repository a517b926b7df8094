import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, HumanMessage, mapChatMessagesToStoredMessages, type BaseMessage } from '@langchain/core/messages';
import { MockActivityEnvironment } from '@temporalio/testing';
import type { ActivityDeps } from '../../../src/activities/activity-deps';
import { HeldStepWrites } from '../../../src/activities/held-step-writes';
import { createLeadModelStep, createLeadModelStepWithOutcomes } from '../../../src/activities/lead-model-step';
import { WRITE_BEHIND_MS } from '../../../src/activities/write-behind';
import { parseConfigText } from '../../../src/config';
import { finishedTask, type LeadModelStepInput, type LeadModelStepWithOutcomesInput, type LeadModelTurn } from '../../../src/contracts';
import { messageKeys, type Stores } from '../../../src/store';
import { newTaskState } from '../../../src/workflows/new-lead-run-state';
import { useMemoryStores } from '../../support/memory-stores';
import { storeOnlyDeps } from '../../support/store-only-deps';

const THREAD = 'thread-writes';
const RUN = 'run-writes';
const INPUT_KEY = messageKeys.input(RUN);

function stepInput(overrides: Partial<LeadModelStepInput> = {}): LeadModelStepInput {
  return {
    threadId: THREAD,
    runId: RUN,
    userId: 'u',
    agentName: 'lead',
    modelName: 'main',
    turn: 0,
    message: 'Summarize the quarterly report.',
    toolOutcomes: [],
    limits: { maxConcurrent: 3, maxTotal: 10, maxLeadTurns: 5, queueTimeoutSeconds: 60, maxTaskAttempts: 2 },
    catalog: [],
    ...overrides,
  } as LeadModelStepInput;
}

/** Every write the stores are asked for, in the order asked: the store, and the message keys or event names. */
function traceWrites(stores: Stores): string[][] {
  const writes: string[][] = [];
  const { messages, events } = stores;
  const putMany = messages.putMessagesIfAbsent.bind(messages);
  const putOne = messages.putMessageIfAbsent.bind(messages);
  const putEvents = events.putBatch.bind(events);
  messages.putMessagesIfAbsent = (records) => {
    if (records.length > 0) writes.push(['messages', ...records.map((r) => r.key)]);
    return putMany(records);
  };
  messages.putMessageIfAbsent = (record) => {
    writes.push(['messages', record.key]);
    return putOne(record);
  };
  events.putBatch = (rows) => {
    writes.push(['events', ...rows.map((r) => r.event)]);
    return putEvents(rows);
  };
  return writes;
}

/** A lead model that answers `answer` after `during` (awaited inside its call), keeping every request. */
function leadWorld(stores: Stores, answer: AIMessage, during: () => Promise<void> = async () => undefined) {
  const requests: BaseMessage[][] = [];
  const model = {
    bindTools: () => model,
    invoke: async (request: BaseMessage[]) => {
      requests.push(request);
      await during();
      return answer;
    },
  } as unknown as BaseChatModel;
  const deps: ActivityDeps = {
    config: parseConfigText('{}', null),
    stores,
    createModel: () => model,
    subagentBacklog: async () => 0,
    llmRetryPolicy: { maxAttempts: 1, baseDelayMs: 1, capDelayMs: 1, burstBaseDelayMs: 1 },
  };
  const env = new MockActivityEnvironment();
  const step = createLeadModelStep(deps);
  const withOutcomes = createLeadModelStepWithOutcomes(deps);
  return {
    requests,
    step: (input: LeadModelStepInput) => env.run(() => step(input)) as Promise<LeadModelTurn>,
    withOutcomes: (input: LeadModelStepWithOutcomesInput) => env.run(() => withOutcomes(input)) as Promise<LeadModelTurn>,
  };
}

const storedKeys = async (stores: Stores) => (await stores.messages.listMessages(THREAD)).map((r) => r.key);
const contents = (request: BaseMessage[] | undefined) => (request ?? []).map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));

describe('a lead model step writes its own messages with its answer', () => {
  const stores = useMemoryStores();

  test("a quick call: the run's input and the answer go in one write, input first, and the model saw the input", async () => {
    const writes = traceWrites(stores());
    const world = leadWorld(stores(), new AIMessage('The report says revenue grew.'));
    const turn = await world.step(stepInput());
    expect(turn.contentBrief).toBe('The report says revenue grew.');
    expect(turn.messageRef).toBe(messageKeys.ai(RUN, 0));
    expect(writes).toEqual([['messages', INPUT_KEY, messageKeys.ai(RUN, 0)]]);
    expect(await storedKeys(stores())).toEqual([INPUT_KEY, messageKeys.ai(RUN, 0)]);
    expect(contents(world.requests[0]).some((c) => c.includes('Summarize the quarterly report.'))).toBe(true);
  });

  test('a call that outlasts the hold finds the input stored while it runs; the answer follows it', async () => {
    const writes = traceWrites(stores());
    let duringCall: string[] = [];
    const world = leadWorld(stores(), new AIMessage('Done.'), async () => {
      await new Promise((resolve) => setTimeout(resolve, WRITE_BEHIND_MS + 100));
      duringCall = await storedKeys(stores());
    });
    await world.step(stepInput());
    expect(duringCall).toEqual([INPUT_KEY]);
    expect(writes).toEqual([
      ['messages', INPUT_KEY],
      ['messages', messageKeys.ai(RUN, 0)],
    ]);
    expect(await storedKeys(stores())).toEqual([INPUT_KEY, messageKeys.ai(RUN, 0)]);
  });

  test("a step that fails before its answer still stores the run's input, and fails with its own error", async () => {
    const step = createLeadModelStep(storeOnlyDeps(stores()));
    await expect(new MockActivityEnvironment().run(() => step(stepInput()))).rejects.toThrow('no model here');
    expect(await storedKeys(stores())).toEqual([INPUT_KEY]);
  });

  test('the outcomes handed to the step: their end rows beside one write of the tool message and the answer, and a retry writes nothing again', async () => {
    const callId = '0.0';
    const toolCallId = `call_${callId}`;
    const [input, delegating] = mapChatMessagesToStoredMessages([
      new HumanMessage({ content: 'Delegate the audit.', additional_kwargs: { run_id: RUN } }),
      new AIMessage({ content: '', tool_calls: [{ id: toolCallId, name: 'task', args: { description: 'Audit', prompt: 'Audit it.', subagent_type: 'general-purpose' } }] }),
    ]);
    await stores().messages.putMessagesIfAbsent([
      { threadId: THREAD, runId: RUN, key: INPUT_KEY, message: input! },
      { threadId: THREAD, runId: RUN, key: messageKeys.ai(RUN, 0), message: delegating! },
    ]);
    const writes = traceWrites(stores());
    const world = leadWorld(stores(), new AIMessage('The audit failed; here is why.'));
    const task = finishedTask({ ...newTaskState(callId, 0, 'general-purpose', 'Audit'), status: 'failed', error: 'disk full', attempts: 1 });
    const stepWithOutcomes = { ...stepInput({ turn: 1, message: null }), outcomes: [{ callId, outcome: { kind: 'subagent' as const, toolCallId, task } }] };
    await world.withOutcomes(stepWithOutcomes);

    const toolKey = messageKeys.tool(RUN, callId);
    expect(writes).toEqual([
      ['events', 'subagent.end'],
      ['messages', toolKey, messageKeys.ai(RUN, 1)],
    ]);
    expect(await storedKeys(stores())).toEqual([INPUT_KEY, messageKeys.ai(RUN, 0), toolKey, messageKeys.ai(RUN, 1)]);
    expect(contents(world.requests[0]).some((c) => c.includes('disk full'))).toBe(true);

    // A retry (the step's completion was lost) finds its answer: no model call, no second row.
    await world.withOutcomes(stepWithOutcomes);
    expect(world.requests).toHaveLength(1);
    expect(await storedKeys(stores())).toHaveLength(4);
    expect(await stores().events.listEvents({ runId: RUN, threadId: THREAD })).toHaveLength(1);
  });
});

describe('HeldStepWrites.transcript', () => {
  const stores = useMemoryStores();

  test('reads as the store lists it once the held messages are written: stored keys keep their place and text, a repeated key counts once', async () => {
    const deps = storeOnlyDeps(stores());
    await stores().messages.putMessagesIfAbsent([
      { threadId: THREAD, runId: RUN, key: 'a', message: mapChatMessagesToStoredMessages([new HumanMessage('first a')])[0]! },
    ]);
    const held = new HeldStepWrites(
      deps,
      [
        { key: 'b', message: new HumanMessage({ content: 'b', additional_kwargs: { dropped: undefined, kept: 1 } }) },
        { key: 'a', message: new HumanMessage('second a') },
        { key: 'c', message: new HumanMessage('c') },
        { key: 'b', message: new HumanMessage('b again') },
      ],
      { threadId: THREAD, runId: RUN },
      async () => undefined,
    );
    const shown = held.transcript(await stores().messages.listMessages(THREAD));
    await held.flush();
    expect(shown).toEqual(await stores().messages.listMessages(THREAD));
    expect(shown.map((r) => [r.key, r.message.data.content])).toEqual([
      ['a', 'first a'],
      ['b', 'b'],
      ['c', 'c'],
    ]);
  });
});
