import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, HumanMessage, mapStoredMessageToChatMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { MockActivityEnvironment } from '@temporalio/testing';
import type { ActivityDeps } from '../../../src/activities/activity-deps';
import { leadRequestHistory, type LeadRequestHistory } from '../../../src/activities/lead-compaction';
import { parseConfigText } from '../../../src/config';
import { SUMMARY_INSTRUCTIONS } from '../../../src/middleware';
import { checkProviderRequest } from '../../../src/models/provider-request-rules';
import { messageKeys, type ThreadMessageRecord } from '../../../src/store';
import { useMemoryStores } from '../../support/memory-stores';

const THREAD = 'thread-1';
const INPUT = { threadId: THREAD, runId: 'run-9', turn: 0, modelName: 'main', agentName: 'lead' };
const SUMMARIZATION = 'summarization: { enabled: true, trigger: { messages: 12 }, keep: { messages: 4 } }';

/** A summarizer that answers `answers` in turn (an Error is thrown) and records what it was sent. */
function fakeSummarizer(answers: Array<string | Error>) {
  const calls: BaseMessage[][] = [];
  const model = {
    invoke: async (messages: BaseMessage[]) => {
      calls.push(messages);
      const answer = answers[Math.min(calls.length - 1, answers.length - 1)];
      if (answer instanceof Error) throw answer;
      return new AIMessage(answer ?? '');
    },
  } as unknown as BaseChatModel;
  return { model, calls };
}

/** Stored records of `count` runs, each: input, an ls call, its result, the final answer. */
function records(count: number, from = 0): ThreadMessageRecord[] {
  return Array.from({ length: count }, (_, n) => {
    const runId = `run-${from + n}`;
    const call = `call_${from + n}`;
    return [
      { key: messageKeys.input(runId), message: new HumanMessage({ content: `question ${from + n}`, additional_kwargs: { run_id: runId } }) },
      { key: messageKeys.ai(runId, 0), message: new AIMessage({ content: '', tool_calls: [{ id: call, name: 'ls', args: { path: '.' } }] }) },
      { key: messageKeys.tool(runId, call), message: new ToolMessage({ content: `listing ${from + n}`, tool_call_id: call, name: 'ls' }) },
      { key: messageKeys.ai(runId, 1), message: new AIMessage(`answer ${from + n}`) },
    ].map(({ key, message }) => ({ threadId: THREAD, runId, key, message: message.toDict() }));
  }).flat();
}

describe('leadRequestHistory', () => {
  const stores = useMemoryStores();

  function deps(config: string, summarizer: BaseChatModel): ActivityDeps {
    return {
      config: parseConfigText(config, null),
      stores: stores(),
      createModel: (_name, role) => {
        if (role.kind !== 'summarizer') throw new Error(`unexpected ${role.kind} model`);
        return summarizer;
      },
      subagentBacklog: async () => 0,
      llmRetryPolicy: { maxAttempts: 1, baseDelayMs: 1, capDelayMs: 1, burstBaseDelayMs: 1 },
    };
  }

  /** One lead step's history, built inside an activity context (it heartbeats while summarizing). */
  const history = (d: ActivityDeps, recs: readonly ThreadMessageRecord[], env = new MockActivityEnvironment()): Promise<LeadRequestHistory> =>
    env.run(() => leadRequestHistory(d, { input: INPUT, records: recs, thread: recs.map((r) => mapStoredMessageToChatMessage(r.message)) })) as Promise<LeadRequestHistory>;

  test('with summarization off the whole (repaired, neutralized) thread is sent and nothing is summarized', async () => {
    const { model, calls } = fakeSummarizer(['unused']);
    const recs = records(5);
    const result = await history(deps('{}', model), recs);
    expect(result.summaryText).toBeNull();
    expect(result.messages).toHaveLength(recs.length);
    expect(calls).toHaveLength(0);
    expect(await stores().summaries.latestSummary(THREAD)).toBeNull();
  });

  test('past the trigger the older part is summarized, stored apart from the thread, and only the kept part is sent', async () => {
    const { model, calls } = fakeSummarizer(['S1']);
    const recs = records(3); // 12 records: meets `messages: 12`
    const result = await history(deps(SUMMARIZATION, model), recs);
    expect(result.summaryText).toBe('S1');
    // The last 4 messages: the latest run, its input framed as user input.
    expect(result.messages.map((m) => m.text)).toEqual([expect.stringContaining('question 2'), '', 'listing 2', 'answer 2']);
    expect(result.messages[0]?.text).toContain('BEGIN USER INPUT');
    expect(checkProviderRequest([new HumanMessage('data'), ...result.messages])).toBeNull();
    expect(await stores().summaries.latestSummary(THREAD)).toEqual({ threadId: THREAD, runId: 'run-9', throughKey: messageKeys.ai('run-1', 1), text: 'S1' });
    expect(await stores().messages.listMessages(THREAD)).toEqual([]);

    expect(calls).toHaveLength(1);
    const [system, prompt] = calls[0]!;
    expect(system?.text).toBe(SUMMARY_INSTRUCTIONS);
    expect(prompt?.text).toMatch(/^\[human\] /);
    expect(prompt?.text).toContain('answer 1');
    expect(prompt?.text).not.toContain('question 2');
  });

  test('later steps reuse the stored summary; the next compaction summarizes it together with the newly cut messages', async () => {
    const { model, calls } = fakeSummarizer(['S1', 'S2']);
    const d = deps(SUMMARIZATION, model);
    await history(d, records(3));
    const grown = [...records(3), ...records(1, 3)];
    const next = await history(d, grown);
    expect(calls).toHaveLength(1);
    expect(next).toEqual({ summaryText: 'S1', messages: expect.any(Array) });
    expect(next.messages.map((m) => m.text)).toEqual(['question 2', '', 'listing 2', 'answer 2', expect.stringContaining('question 3'), '', 'listing 3', 'answer 3']);

    const longer = [...grown, ...records(2, 4)];
    const later = await history(d, longer);
    expect(calls).toHaveLength(2);
    expect(calls[1]![1]!.text).toMatch(/^Summary so far:\nS1\n\n\[human\] question 2\n/);
    expect(later.summaryText).toBe('S2');
    expect(later.messages).toHaveLength(4);
    expect((await stores().summaries.latestSummary(THREAD))?.throughKey).toBe(messageKeys.ai('run-4', 1));
  });

  test('a retried step racing the first one keeps the first stored summary (first writer wins)', async () => {
    const recs = records(3);
    const first = fakeSummarizer(['from attempt 1']);
    const second = fakeSummarizer(['from attempt 2']);
    const [a, b] = await Promise.all([history(deps(SUMMARIZATION, first.model), recs), history(deps(SUMMARIZATION, second.model), recs)]);
    expect(a.summaryText).toBe(b.summaryText);
    expect(a.messages.map((m) => m.text)).toEqual(b.messages.map((m) => m.text));
    expect((await stores().summaries.latestSummary(THREAD))?.text).toBe(a.summaryText);
    // A retry after the write summarizes nothing again.
    const third = fakeSummarizer(['from attempt 3']);
    expect((await history(deps(SUMMARIZATION, third.model), recs)).summaryText).toBe(a.summaryText);
    expect(third.calls).toHaveLength(0);
  });

  test('a failing or empty summarizer leaves the history uncompacted (the stored summary still applies)', async () => {
    const failing = fakeSummarizer([Object.assign(new Error('bad request'), { status: 400 })]);
    const recs = records(3);
    const result = await history(deps(SUMMARIZATION, failing.model), recs);
    expect(result).toEqual({ summaryText: null, messages: expect.any(Array) });
    expect(result.messages).toHaveLength(recs.length);
    expect(await stores().summaries.latestSummary(THREAD)).toBeNull();

    await history(deps(SUMMARIZATION, fakeSummarizer(['S1']).model), recs);
    const longer = [...recs, ...records(3, 3)];
    const empty = await history(deps(SUMMARIZATION, fakeSummarizer(['  ']).model), longer);
    expect(empty.summaryText).toBe('S1');
    expect(empty.messages).toHaveLength(longer.length - 8);
  });

  test('cancellation while summarizing propagates', async () => {
    const env = new MockActivityEnvironment();
    const never = {
      invoke: (_messages: BaseMessage[], options: { signal: AbortSignal }) =>
        new Promise((_resolve, reject) => options.signal.addEventListener('abort', () => reject(options.signal.reason))),
    } as unknown as BaseChatModel;
    const running = history(deps(SUMMARIZATION, never), records(3), env);
    setTimeout(() => env.cancel(), 20);
    await expect(running).rejects.toMatchObject({ name: 'CancelledFailure' });
    expect(await stores().summaries.latestSummary(THREAD)).toBeNull();
  });
});
