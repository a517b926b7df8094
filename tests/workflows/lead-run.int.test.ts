import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mapStoredMessageToChatMessage, ToolMessage } from '@langchain/core/messages';
import { RunJsonOutputSchema, SA_RUN_STATUS, SA_SUBAGENTS, SA_THREAD_ID } from '../../src/contracts';
import { buildRunReport } from '../../src/cli/run-report';
import { useTemporal } from '../support/use-temporal';

const temporal = useTemporal();

const twoParallelTasks = {
  lead: [
    {
      tool_calls: [
        { name: 'task', args: { description: 'Count files', prompt: 'Alpha: write two files and count them', subagent_type: 'general-purpose' } },
        { name: 'task', args: { description: 'Print host', prompt: 'Beta: print the kernel name', subagent_type: 'bash' } },
      ],
      usage: { input_tokens: 120, output_tokens: 40 },
    },
    { content: 'Alpha counted 2 files; Beta printed the kernel.', usage: { input_tokens: 300, output_tokens: 20 } },
  ],
  subagents: [
    {
      match: 'Alpha',
      turns: [
        { tool_calls: [{ name: 'bash', args: { command: 'echo a > a.txt && echo b > b.txt && ls *.txt | wc -l' } }], usage: { input_tokens: 50, output_tokens: 10 } },
        { content: 'There are 2 files [r1 bash]', usage: { input_tokens: 70, output_tokens: 5, total_tokens: 80 } },
      ],
    },
    {
      match: 'Beta',
      turns: [{ tool_calls: [{ name: 'bash', args: { command: 'uname -s' } }] }, { content: 'Kernel printed [r1 bash]' }],
    },
  ],
};

test('two task calls in one response run in parallel as subagent activities and both complete', async () => {
  const harness = await temporal.start(twoParallelTasks);
  const { state, workflowId } = await harness.run({ message: 'count and print', threadId: 'thread-parallel', runId: 'run-1' });
  const report = await buildRunReport(harness.stores, state, workflowId);

  expect(RunJsonOutputSchema.parse(report)).toEqual(report);
  expect(report.status).toBe('completed');
  expect(report.final_message).toBe('Alpha counted 2 files; Beta printed the kernel.');
  const [alpha, beta] = report.tasks;
  expect(alpha).toMatchObject({
    subagent: 'general-purpose',
    status: 'completed',
    model: 'scripted',
    result: 'There are 2 files [r1 bash]',
    error: null,
    stop_reason: null,
    attempts: 1,
    // 50+10 from the first turn, then the script's explicit total of 80.
    token_usage: { input_tokens: 120, output_tokens: 15, total_tokens: 140 },
  });
  expect(beta).toMatchObject({ subagent: 'bash', status: 'completed', result: 'Kernel printed [r1 bash]', token_usage: null });
  expect(report.events).toEqual({ 'subagent.start': 2, 'subagent.step': 6, 'subagent.end': 2 });
  // Per task: start, its steps in order (1-based, with the running total and cumulative usage), one end.
  const alphaEvents = await harness.stores.events.listEvents({ runId: 'run-1', taskId: alpha!.task_id });
  expect(alphaEvents.map((e) => e.event)).toEqual(['subagent.start', 'subagent.step', 'subagent.step', 'subagent.step', 'subagent.end']);
  const alphaSteps = alphaEvents.filter((e) => e.event === 'subagent.step').map((e) => e.payload as { message_index: number; total_messages: number; kind: string; usage: unknown });
  expect(alphaSteps.map((p) => [p.message_index, p.kind])).toEqual([[1, 'ai'], [2, 'tool'], [3, 'ai']]);
  expect(alphaSteps.map((p) => p.total_messages)).toEqual([1, 2, 3]);
  expect(alphaSteps.map((p) => p.usage)).toEqual([
    { input_tokens: 50, output_tokens: 10, total_tokens: 60 },
    { input_tokens: 50, output_tokens: 10, total_tokens: 60 },
    { input_tokens: 120, output_tokens: 15, total_tokens: 140 },
  ]);
  expect(alphaEvents[0]?.payload).toMatchObject({ subagent: 'general-purpose', model_name: 'scripted', description: 'Count files' });

  // The bash tool really ran in the thread's workspace.
  const workspace = join(harness.loaded.config.store.data_dir, 'threads', 'thread-parallel', 'user-data', 'workspace');
  expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('a\n');
  expect(existsSync(join(workspace, 'b.txt'))).toBe(true);

  // Both subagents were scheduled before either finished: they ran in parallel.
  const history = await temporal.env().client.workflow.getHandle(workflowId).fetchHistory();
  const kinds = (history.events ?? []).flatMap((e) => {
    if (e.activityTaskScheduledEventAttributes?.activityType?.name === 'runSubagent') return ['scheduled'];
    if (e.activityTaskCompletedEventAttributes && e.activityTaskCompletedEventAttributes.scheduledEventId) {
      const scheduled = history.events?.find((s) => Number(s.eventId) === Number(e.activityTaskCompletedEventAttributes?.scheduledEventId));
      return scheduled?.activityTaskScheduledEventAttributes?.activityType?.name === 'runSubagent' ? ['completed'] : [];
    }
    return [];
  });
  expect(kinds.slice(0, 2)).toEqual(['scheduled', 'scheduled']);

  // Temporal Web can filter and show the run by our search attributes and summary.
  const description = await temporal.env().client.workflow.getHandle(workflowId).describe();
  expect(description.typedSearchAttributes.get(SA_RUN_STATUS)).toBe('completed');
  expect(description.typedSearchAttributes.get(SA_THREAD_ID)).toBe('thread-parallel');
  expect([...(description.typedSearchAttributes.get(SA_SUBAGENTS) ?? [])].sort()).toEqual(['bash', 'general-purpose']);
  expect(await description.staticSummary()).toBe('default for default: count and print');

  // The lead's second model call saw both results as task ToolMessages carrying the §3 metadata.
  const transcript = await harness.stores.messages.listMessages('thread-parallel');
  // Each outcome is written when it is known, so the tool messages come in completion order.
  const toolMessages = transcript
    .map((r) => mapStoredMessageToChatMessage(r.message))
    .filter((m) => ToolMessage.isInstance(m))
    .sort((a, b) => String(a.content).localeCompare(String(b.content)));
  expect(toolMessages.map((m) => m.content)).toEqual([
    'Task Succeeded. Result: Kernel printed [r1 bash]',
    'Task Succeeded. Result: There are 2 files [r1 bash]',
  ]);
  expect(toolMessages[1]?.additional_kwargs).toMatchObject({
    subagent_status: 'completed',
    subagent_result_brief: 'There are 2 files [r1 bash]',
    subagent_model_name: 'scripted',
    subagent_token_usage: { input_tokens: 120, output_tokens: 15, total_tokens: 140 },
  });
  expect(toolMessages[1]?.additional_kwargs['subagent_result_sha256']).toMatch(/^[0-9a-f]{64}$/);
  expect(toolMessages[0]?.additional_kwargs).not.toHaveProperty('subagent_token_usage');
});

test('a task call with missing or invalid arguments or an unknown subagent is a failed task naming the problem, and the run goes on', async () => {
  const harness = await temporal.start({
    lead: [
      {
        tool_calls: [
          { name: 'task', args: { description: 'No prompt', subagent_type: 'general-purpose' } },
          { name: 'task', args: { description: 'Bad type', prompt: 'do it', subagent_type: 'wizard' } },
          { name: 'task', args: { description: 'Wrong type', prompt: 42, subagent_type: 'general-purpose' } },
        ],
      },
      { content: 'I will do it myself.' },
    ],
  });
  const { state, workflowId } = await harness.run({ message: 'go', threadId: 'thread-invalid', runId: 'run-1' });
  const report = await buildRunReport(harness.stores, state, workflowId);
  expect(report.status).toBe('completed');
  expect(report.final_message).toBe('I will do it myself.');
  // A refused task is a failed task: listed with the exact error, one subagent.end each, no start.
  expect(report.tasks).toEqual([
    expect.objectContaining({ task_id: '0.0', subagent: 'general-purpose', status: 'failed', error: 'Invalid task arguments: prompt: is required', attempts: 0 }),
    expect.objectContaining({ task_id: '0.1', subagent: 'wizard', status: 'failed', error: "Unknown subagent type 'wizard'. Available: general-purpose, bash" }),
    expect.objectContaining({ task_id: '0.2', status: 'failed', error: expect.stringContaining('prompt: must be a string') }),
  ]);
  expect(report.events).toEqual({ 'subagent.end': 3 });
  const ends = await harness.stores.events.listEvents({ runId: 'run-1', threadId: 'thread-invalid' });
  expect(ends.map((e) => [e.taskId, (e.payload as { status: string }).status])).toEqual(
    expect.arrayContaining([['0.0', 'failed'], ['0.1', 'failed'], ['0.2', 'failed']]),
  );

  const transcript = await harness.stores.messages.listMessages('thread-invalid');
  const tools = transcript.map((r) => mapStoredMessageToChatMessage(r.message)).filter((m) => ToolMessage.isInstance(m));
  expect(tools).toHaveLength(3);
  expect(tools.map((t) => t.content).sort()).toEqual([
    'Task failed. Error: Invalid task arguments: prompt: is required',
    expect.stringMatching(/^Task failed\. Error: Invalid task arguments: prompt: must be a string/),
    "Task failed. Error: Unknown subagent type 'wizard'. Available: general-purpose, bash",
  ]);
  for (const tool of tools) {
    expect(tool.status).toBe('error');
    expect(tool.additional_kwargs['subagent_status']).toBe('failed');
  }
});

test('a provider error inside a subagent is retried, then fails that task with the provider message', async () => {
  const harness = await temporal.start({
    lead: [
      { tool_calls: [{ name: 'task', args: { description: 'Flaky', prompt: 'Gamma', subagent_type: 'general-purpose' } }] },
      { content: 'The subagent failed.' },
    ],
    subagents: [{ match: 'Gamma', turns: [{ error: '503 upstream unavailable', repeat: 3 }, { content: 'never reached' }] }],
  });
  const { state, workflowId } = await harness.run({ message: 'go', threadId: 'thread-error', runId: 'run-1' });
  const report = await buildRunReport(harness.stores, state, workflowId);
  expect(report.status).toBe('completed');
  expect(report.tasks).toEqual([
    expect.objectContaining({ status: 'failed', result: null, token_usage: null, attempts: 1 }),
  ]);
  expect(report.tasks[0]?.error).toContain('503 upstream unavailable');
  // Three model calls: the first and two retries, all failing; the fourth turn was never reached.
  expect(harness.recorder.requests.filter((r) => !r.tags.includes('lead'))).toHaveLength(3);
  expect(report.events['subagent.end']).toBe(1);
});

test('a model that cannot be built fails the run at once with the reason (no blind retries)', async () => {
  const harness = await temporal.start({ lead: [{ content: 'unused' }] }, {
    models: [{ name: 'scripted', provider: 'scripted', script: './no-such-scenario.yaml' }],
  });
  const started = Date.now();
  const { state, workflowId } = await harness.run({ message: 'go', threadId: 'thread-bad-model', runId: 'run-1' });
  expect(state.status).toBe('failed');
  expect(state.error).toContain('no-such-scenario.yaml');
  // Retrying would back off 1+2+4+8 s; a configuration error is not retried.
  expect(Date.now() - started).toBeLessThan(5_000);
  const history = await temporal.env().client.workflow.getHandle(workflowId).fetchHistory();
  const failed = (history.events ?? []).find((e) => e.activityTaskFailedEventAttributes);
  expect(failed?.activityTaskFailedEventAttributes?.failure?.applicationFailureInfo?.type).toBe('ConfigurationError');
});
