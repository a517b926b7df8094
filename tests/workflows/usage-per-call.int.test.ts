import { mapStoredMessageToChatMessage, ToolMessage } from '@langchain/core/messages';
import type { TokenUsage } from '../../src/contracts';
import type { Harness } from '../support/harness';
import { useTemporal, waitFor } from '../support/use-temporal';

const temporal = useTemporal();

const SUMMARY_MARKER = 'You compact the working history';
const SUMMARIZER_USAGE = { input_tokens: 5, output_tokens: 1 };
const COMPACTING = { summarization: { enabled: true, trigger: { messages: 6 }, keep: { messages: 2 } } };

const usage = (input: number, output: number): TokenUsage => ({ input_tokens: input, output_tokens: output, total_tokens: input + output });
const times = (n: number, u: TokenUsage): TokenUsage => usage(n * u.input_tokens, n * u.output_tokens);
const sum = (...parts: TokenUsage[]): TokenUsage => parts.reduce((a, b) => usage(a.input_tokens + b.input_tokens, a.output_tokens + b.output_tokens));

const task = (description: string) => ({ name: 'task', args: { description, prompt: `${description}: work`, subagent_type: 'general-purpose' } });

/** The `subagent.end` payload of the thread's only task. */
async function endPayload(harness: Harness, threadId: string): Promise<Record<string, unknown>> {
  const ends = await harness.stores.events.listEvents({ runId: 'run-1', threadId, eventTypes: ['subagent.end'] });
  expect(ends).toHaveLength(1);
  return ends[0]!.payload as Record<string, unknown>;
}

/** The `task` tool message the lead read for the run's only task. */
async function taskToolMessage(harness: Harness, threadId: string): Promise<ToolMessage> {
  const messages = (await harness.stores.messages.listMessages(threadId)).map((r) => mapStoredMessageToChatMessage(r.message));
  const tool = messages.find((m): m is ToolMessage => ToolMessage.isInstance(m) && m.name === 'task');
  if (tool === undefined) throw new Error('no task tool message');
  return tool;
}

test("a compacted subagent's usage is the sum of every model call, the summarizer's included", async () => {
  const TOOL_TURNS = 8;
  const turnUsage = usage(10, 2);
  const finalUsage = usage(20, 4);
  const harness = await temporal.start(
    {
      lead: [{ tool_calls: [task('Walk dirs')] }, { content: 'ok' }],
      subagents: [
        {
          match: '*',
          turns: [
            ...Array.from({ length: TOOL_TURNS }, (_, i) => ({ content: `step ${i}`, tool_calls: [{ name: 'ls', args: { path: `dir-${i}` } }], usage: turnUsage })),
            { content: 'all directories checked', usage: finalUsage },
          ],
        },
      ],
      summarizer: { usage: SUMMARIZER_USAGE },
    },
    COMPACTING,
  );
  const { state } = await harness.run({ message: 'go', threadId: 'usage-compaction', runId: 'run-1' });

  const summaries = harness.recorder.requests.filter((r) => !r.tags.includes('lead-compaction') && r.messages[0]?.text.includes(SUMMARY_MARKER)).length;
  expect(summaries).toBeGreaterThan(0);
  const expected = sum(times(TOOL_TURNS, turnUsage), finalUsage, times(summaries, usage(SUMMARIZER_USAGE.input_tokens, SUMMARIZER_USAGE.output_tokens)));
  expect(state.tasks.map((t) => [t.status, t.usage])).toEqual([['completed', expected]]);
  expect(await endPayload(harness, 'usage-compaction')).toMatchObject({ status: 'completed', model_name: 'scripted', usage: expected });
  // The live usage on the steps is cumulative and ends at the same total.
  const steps = await harness.stores.events.listEvents({ runId: 'run-1', threadId: 'usage-compaction', eventTypes: ['subagent.step'] });
  expect((steps[steps.length - 1]!.payload as { usage: TokenUsage }).usage).toEqual(expected);
  expect((await taskToolMessage(harness, 'usage-compaction')).additional_kwargs['subagent_token_usage']).toEqual(expected);
});

test("the lead's usage counts each call of its steps, its compaction summarizer's included", async () => {
  const LS_TURNS = 5;
  const leadUsage = usage(100, 10);
  const harness = await temporal.start(
    {
      lead: [
        ...Array.from({ length: LS_TURNS }, (_, i) => ({ tool_calls: [{ name: 'ls', args: { path: `dir-${i}` } }], usage: leadUsage })),
        { content: 'listed', usage: leadUsage },
      ],
      summarizer: { usage: SUMMARIZER_USAGE },
    },
    COMPACTING,
  );
  const { state } = await harness.run({ message: 'list', threadId: 'usage-lead', runId: 'run-1' });
  expect(state.status).toBe('completed');
  const requests = harness.recorder.requests;
  const summaries = requests.filter((r) => r.tags.includes('lead-compaction')).length;
  expect(summaries).toBeGreaterThan(0);
  // Every lead call reports the same usage (the scripted lead may answer a turn again after compaction).
  const calls = requests.filter((r) => r.tags.includes('lead')).length;
  expect(calls).toBeGreaterThan(LS_TURNS);
  expect(state.leadUsage).toEqual(sum(times(calls, leadUsage), times(summaries, usage(SUMMARIZER_USAGE.input_tokens, SUMMARIZER_USAGE.output_tokens))));
});

/** A subagent that lists a folder (a receipt, with usage) and then hangs on its second call. */
const HANGING_SUBAGENT = [
  { match: '*', turns: [{ content: 'looking', tool_calls: [{ name: 'ls', args: { path: '.' } }], usage: usage(30, 5) }, { content: 'late', delay_ms: 60_000, usage: usage(1, 1) }] },
];

test('a cancelled task keeps its usage, model and latest evidence in state, its end event and the tool message', async () => {
  const harness = await temporal.start({ lead: [{ tool_calls: [task('Slow')] }, { content: 'done' }], subagents: HANGING_SUBAGENT });
  const started = await harness.client.startRun({ message: 'go', threadId: 'usage-cancel', runId: 'run-1' });
  // The second model call is in flight: the first answered and its tool ran.
  await waitFor(async () => harness.recorder.requests.filter((r) => !r.tags.includes('lead')).length === 2);
  expect(await harness.client.cancelTask(started.workflowId, '0.0')).toEqual({ taskId: '0.0', status: 'cancelled' });
  await started.handle.result();

  const state = await harness.client.getState(started.workflowId);
  const [only] = state.tasks;
  expect([only?.status, only?.usage, only?.modelName]).toEqual(['cancelled', usage(30, 5), 'scripted']);
  expect(only?.evidence?.receipts).toBe(1);
  expect(await endPayload(harness, 'usage-cancel')).toMatchObject({ status: 'cancelled', model_name: 'scripted', usage: usage(30, 5) });
  expect((await taskToolMessage(harness, 'usage-cancel')).additional_kwargs).toMatchObject({
    subagent_status: 'cancelled',
    subagent_model_name: 'scripted',
    subagent_token_usage: usage(30, 5),
  });
});

test('a timed-out task keeps its usage, model and latest evidence in state, its end event and the tool message', async () => {
  const harness = await temporal.start({ lead: [{ tool_calls: [task('Slow')] }, { content: 'done' }], subagents: HANGING_SUBAGENT }, { subagents: { timeout_seconds: 3 } });
  const { state } = await harness.run({ message: 'go', threadId: 'usage-timeout', runId: 'run-1' });

  const [only] = state.tasks;
  expect([only?.status, only?.error, only?.usage, only?.modelName]).toEqual(['timed_out', 'Execution timed out after 3 seconds', usage(30, 5), 'scripted']);
  expect(only?.evidence?.receipts).toBe(1);
  expect(await endPayload(harness, 'usage-timeout')).toMatchObject({ status: 'timed_out', model_name: 'scripted', usage: usage(30, 5) });
  expect((await taskToolMessage(harness, 'usage-timeout')).additional_kwargs).toMatchObject({
    subagent_status: 'timed_out',
    subagent_model_name: 'scripted',
    subagent_token_usage: usage(30, 5),
  });
});

/** The `taskProgress` signals in a run's history: task, usage and receipts of each. */
async function progressSignals(workflowId: string): Promise<[string, TokenUsage | null, number | undefined][]> {
  const history = await temporal.env().client.workflow.getHandle(workflowId).fetchHistory();
  return (history.events ?? []).flatMap((e) => {
    const signal = e.workflowExecutionSignaledEventAttributes;
    if (!signal || signal.signalName !== 'taskProgress') return [];
    return (signal.input?.payloads ?? []).map((p) => {
      const report = JSON.parse(Buffer.from(p.data ?? new Uint8Array()).toString('utf8')) as { taskId: string; progress: { usage: TokenUsage | null; evidence: { receipts: number } | null } };
      return [report.taskId, report.progress.usage, report.progress.evidence?.receipts] as [string, TokenUsage | null, number | undefined];
    });
  });
}

test('a task stores its usage before it waits on a tool or a model, never for the response it ends with, and sends no signal within the interval', async () => {
  const harness = await temporal.start({
    lead: [{ tool_calls: [task('Quick one'), task('Quick two'), task('Lister')] }, { content: 'done' }],
    subagents: [
      { match: 'Lister', turns: [{ content: 'looking', tool_calls: [{ name: 'ls', args: { path: '.' } }], usage: usage(30, 5) }, { content: 'listed', usage: usage(7, 1) }] },
      { match: '*', turns: [{ content: 'quick', usage: usage(11, 2) }] },
    ],
  });
  const { state, workflowId } = await harness.run({ message: 'go', threadId: 'usage-store', runId: 'run-1' });
  expect(state.tasks.map((t) => [t.description, t.status, t.usage])).toEqual([
    ['Quick one', 'completed', usage(11, 2)],
    ['Quick two', 'completed', usage(11, 2)],
    ['Lister', 'completed', usage(37, 6)],
  ]);
  const stored = (taskId: string) => harness.stores.progress.getProgress({ threadId: 'usage-store', runId: 'run-1', taskId });
  // Only the lister waited after a response: on its tool (the usage so far), then on its second
  // model call (the tool's receipt is new evidence); its last response comes with its result.
  expect(await stored('0.0')).toBeNull();
  expect(await stored('0.1')).toBeNull();
  const lister = await stored('0.2');
  expect([lister?.attempt, lister?.progress.usage, lister?.progress.evidence?.receipts]).toEqual([1, usage(30, 5), 1]);
  // The default interval (5 s) had not passed: the run's history holds no progress signal.
  expect(await progressSignals(workflowId)).toEqual([]);
});

test('a long task signals its progress to the run at most once per progress_signal_seconds, while it waits on a call too', async () => {
  const harness = await temporal.start(
    {
      lead: [{ tool_calls: [task('Slow lister')] }, { content: 'done' }],
      subagents: [
        {
          match: '*',
          turns: [
            // Its tool outlasts the one-second interval: the report stored before it is signalled while it runs.
            { content: 'waiting', tool_calls: [{ name: 'bash', args: { command: 'sleep 1.5; echo waited' } }], usage: usage(30, 5) },
            { content: 'again', tool_calls: [{ name: 'ls', args: { path: '.' } }], usage: usage(10, 2) },
            { content: 'listed', usage: usage(7, 1) },
          ],
        },
      ],
    },
    { subagent_runtime: { progress_signal_seconds: 1 } },
  );
  const { state, workflowId } = await harness.run({ message: 'go', threadId: 'usage-live', runId: 'run-1' });
  expect(state.tasks.map((t) => [t.status, t.usage])).toEqual([['completed', usage(47, 8)]]);
  // One signal: the later reports (before the second model call, the second tool, the third model
  // call) came within a second of it, were stored only, and the task ended before the next was due.
  expect(await progressSignals(workflowId)).toEqual([['0.0', usage(30, 5), 0]]);
  const stored = await harness.stores.progress.getProgress({ threadId: 'usage-live', runId: 'run-1', taskId: '0.0' });
  expect([stored?.progress.usage, stored?.progress.evidence?.receipts]).toEqual([usage(40, 7), 2]);
});
