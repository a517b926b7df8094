import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage } from '@langchain/core/messages';
import { MockActivityEnvironment } from '@temporalio/testing';
import type { ActivityDeps } from '../../../src/activities/activity-deps';
import { createLeadModelStep } from '../../../src/activities/lead-model-step';
import { parseConfigText } from '../../../src/config';
import type { LeadModelStepInput, LeadModelTurn } from '../../../src/contracts';
import type { Stores } from '../../../src/store';
import { reusedReading } from '../../../src/worker/reused-reading';
import { BACKLOG_READING_MAX_AGE_MS } from '../../../src/worker/subagent-backlog';
import { useMemoryStores } from '../../support/memory-stores';

const THREAD = 'thread-admission';
const RUN = 'run-admission';

/** A step input that asks for the snapshot, with `general-purpose` in the run's catalog. */
function stepInput(overrides: Partial<LeadModelStepInput> = {}): LeadModelStepInput {
  return {
    threadId: THREAD,
    runId: RUN,
    userId: 'u',
    agentName: 'lead',
    modelName: 'main',
    turn: 0,
    message: 'Delegate one job.',
    toolOutcomes: [],
    limits: { maxConcurrent: 3, maxTotal: 10, maxLeadTurns: 5, queueTimeoutSeconds: 60, maxTaskAttempts: 2 },
    catalog: [{ name: 'general-purpose', timeoutSeconds: 600, maxTurns: 20 }],
    admissionSnapshot: true,
    ...overrides,
  } as LeadModelStepInput;
}

const TASK_CALL = { id: 'call_1', name: 'task', args: { description: 'Job', prompt: 'Do the job.', subagent_type: 'general-purpose' } };

/**
 * The lead's model and the backlog reader around it: the reader is the worker's (reused for a
 * second from when it was asked for) on a clock the test moves; the model records how many
 * readings were asked for when it was called, and its call lasts `callMs` on that clock.
 */
function stepWorld(stores: Stores, opts: { readings: Array<number | Error>; callMs: number; answer: AIMessage }) {
  let clock = 1_000_000;
  const asked: number[] = [];
  const read = async (): Promise<number> => {
    asked.push(clock);
    const reading = opts.readings[Math.min(asked.length - 1, opts.readings.length - 1)];
    if (reading instanceof Error) throw reading;
    return reading ?? 0;
  };
  const calls: Array<{ readingsAsked: number }> = [];
  const model = {
    bindTools: () => model,
    invoke: async () => {
      calls.push({ readingsAsked: asked.length });
      clock += opts.callMs;
      return opts.answer;
    },
  } as unknown as BaseChatModel;
  const deps: ActivityDeps = {
    config: parseConfigText('{}', null),
    stores,
    createModel: () => model,
    subagentBacklog: reusedReading(read, BACKLOG_READING_MAX_AGE_MS, () => clock),
    llmRetryPolicy: { maxAttempts: 1, baseDelayMs: 1, capDelayMs: 1, burstBaseDelayMs: 1 },
  };
  const step = createLeadModelStep(deps);
  return {
    asked,
    calls,
    run: (input: LeadModelStepInput) => new MockActivityEnvironment().run(() => step(input)) as Promise<LeadModelTurn>,
  };
}

describe('leadModelStep: the admission snapshot of a delegating response', () => {
  const stores = useMemoryStores();

  test('the backlog is asked for before the model is called, and a quick call takes that reading: one read', async () => {
    const world = stepWorld(stores(), { readings: [4, 9], callMs: 200, answer: new AIMessage({ content: '', tool_calls: [TASK_CALL] }) });
    const turn = await world.run(stepInput());
    expect(world.calls).toEqual([{ readingsAsked: 1 }]);
    expect(world.asked).toHaveLength(1);
    expect(turn.toolCalls.map((call) => call.name)).toEqual(['task']);
    expect(turn.admission?.queued).toBe(4);
  });

  test('a call longer than a reading lives reads the backlog again once it returns: the snapshot is never older than before', async () => {
    const world = stepWorld(stores(), { readings: [4, 9], callMs: BACKLOG_READING_MAX_AGE_MS + 500, answer: new AIMessage({ content: '', tool_calls: [TASK_CALL] }) });
    const turn = await world.run(stepInput());
    expect(world.asked).toHaveLength(2);
    expect(world.asked[1]! - world.asked[0]!).toBe(BACKLOG_READING_MAX_AGE_MS + 500);
    expect(turn.admission?.queued).toBe(9);
  });

  test('a reading that failed ahead of the call fails nothing: the snapshot reads again', async () => {
    const world = stepWorld(stores(), { readings: [new Error('frontend unavailable'), 7], callMs: 10, answer: new AIMessage({ content: '', tool_calls: [TASK_CALL] }) });
    const turn = await world.run(stepInput());
    expect(world.asked).toHaveLength(2);
    expect(turn.admission?.queued).toBe(7);
  });

  test('a run that does not ask for the snapshot, or has no subagent to delegate to, reads no backlog', async () => {
    const answer = new AIMessage({ content: '', tool_calls: [TASK_CALL] });
    const notAsked = stepWorld(stores(), { readings: [4], callMs: 10, answer });
    expect((await notAsked.run(stepInput({ admissionSnapshot: false }))).admission).toBeUndefined();
    expect(notAsked.asked).toEqual([]);

    const noCatalog = stepWorld(stores(), { readings: [4], callMs: 10, answer: new AIMessage('Nothing to delegate.') });
    expect((await noCatalog.run(stepInput({ runId: 'run-no-catalog', catalog: [] }))).admission).toBeUndefined();
    expect(noCatalog.asked).toEqual([]);
  });
});
