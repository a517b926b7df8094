import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AIMessage, HumanMessage, mapChatMessagesToStoredMessages, mapStoredMessageToChatMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { WorkflowFailedError } from '@temporalio/client';
import type { temporal as proto } from '@temporalio/proto';
import { RunJsonOutputSchema } from '../../src/contracts';
import { buildRunReport } from '../../src/cli/run-report';
import type { Harness } from '../support/harness';
import { useTemporal, waitFor } from '../support/use-temporal';

const temporal = useTemporal();

// Tests that run twice on one thread keep their folder across two harnesses; removed at the end.
const keptDirs: string[] = [];
afterAll(() => {
  for (const dir of keptDirs) rmSync(dir, { recursive: true, force: true });
});
function keptDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'deerflow-test-'));
  keptDirs.push(dir);
  return dir;
}

const task = (name: string, id?: string) => ({
  name: 'task',
  ...(id === undefined ? {} : { id }),
  args: { description: `Job ${name}`, prompt: `${name}: do it`, subagent_type: 'general-purpose' },
});

/** The thread as a provider would be sent it. */
async function thread(harness: Harness, threadId: string): Promise<BaseMessage[]> {
  return (await harness.stores.messages.listMessages(threadId)).map((r) => mapStoredMessageToChatMessage(r.message));
}

/** Every tool call of the thread has exactly one tool message, right after its assistant message. */
function expectNoDanglingCalls(messages: readonly BaseMessage[]): void {
  messages.forEach((message, index) => {
    if (!AIMessage.isInstance(message) || (message.tool_calls ?? []).length === 0) return;
    const ids = (message.tool_calls ?? []).map((c) => c.id);
    const answers = messages.slice(index + 1, index + 1 + ids.length);
    expect(answers.every((m) => ToolMessage.isInstance(m))).toBe(true);
    expect(answers.map((m) => (m as ToolMessage).tool_call_id).sort()).toEqual([...ids].sort());
  });
}

function scheduledActivities(history: proto.api.history.v1.IHistory): Array<{ id: number; type: string; activityId: string }> {
  return (history.events ?? []).flatMap((e) => {
    const attrs = e.activityTaskScheduledEventAttributes;
    return attrs ? [{ id: Number(e.eventId), type: attrs.activityType?.name ?? '', activityId: attrs.activityId ?? '' }] : [];
  });
}

function completedScheduledIds(history: proto.api.history.v1.IHistory): number[] {
  return (history.events ?? []).flatMap((e) => (e.activityTaskCompletedEventAttributes ? [Number(e.activityTaskCompletedEventAttributes.scheduledEventId)] : []));
}

test('a lead reads a file directly: one runLeadTool activity, tool.start/tool.end, no subagent', async () => {
  const harness = await temporal.start({
    lead: [{ tool_calls: [{ name: 'read_file', args: { path: 'notes.txt' } }], usage: { input_tokens: 10, output_tokens: 5 } }, { content: 'The note says hello.' }],
  });
  const workspace = join(harness.loaded.config.store.data_dir, 'threads', 'thread-direct', 'user-data', 'workspace');
  mkdirSync(workspace, { recursive: true });
  writeFileSync(join(workspace, 'notes.txt'), 'hello from the workspace\n');

  const { state, workflowId } = await harness.run({ message: 'what does notes.txt say?', threadId: 'thread-direct', runId: 'run-1' });
  const report = await buildRunReport(harness.stores, state, workflowId);
  expect(RunJsonOutputSchema.parse(report)).toEqual(report);
  expect(report).toMatchObject({ status: 'completed', stop_reason: null, final_message: 'The note says hello.', tasks: [] });
  expect(report.lead_tools).toEqual([{ call_id: '0.0', tool: 'read_file', status: 'completed', error: null }]);
  expect(report.events).toEqual({ 'tool.start': 1, 'tool.end': 1 });
  const [start, end] = await harness.stores.events.listEvents({ runId: 'run-1', threadId: 'thread-direct' });
  expect(start).toMatchObject({ category: 'tool', event: 'tool.start', taskId: '0.0', payload: { call_id: '0.0', tool: 'read_file', args: '{"path":"notes.txt"}' } });
  expect(end).toMatchObject({ event: 'tool.end', payload: { status: 'completed', output: 'hello from the workspace\n' } });

  // The second lead request carries the file's text as the answer to the call, and no subagent ran.
  const leadRequests = harness.recorder.requests.filter((r) => r.tags.includes('lead'));
  expect(leadRequests).toHaveLength(2);
  expect(harness.recorder.requests).toHaveLength(2);
  const answer = leadRequests[1]?.messages.find((m) => ToolMessage.isInstance(m));
  expect(answer?.content).toBe('hello from the workspace\n');
  // The lead was offered its own tools beside task.
  expect(leadRequests[0]?.tools).toEqual(expect.arrayContaining(['task', 'ls', 'read_file', 'write_file', 'str_replace', 'bash', 'web_fetch']));

  const history = await temporal.env().client.workflow.getHandle(workflowId).fetchHistory();
  const tool = scheduledActivities(history).find((a) => a.type === 'runLeadTool');
  expect(tool?.activityId).toBe('0.0');
  const event = (history.events ?? []).find((e) => Number(e.eventId) === tool?.id);
  const summary = event?.userMetadata?.summary?.data;
  expect(summary ? JSON.parse(Buffer.from(summary).toString('utf8')) : null).toBe('read_file: notes.txt');
});

test('one direct tool call and two tasks in one response all run in parallel', async () => {
  const harness = await temporal.start({
    lead: [
      { tool_calls: [task('Alpha'), { name: 'bash', args: { command: 'sleep 1; echo direct' } }, task('Beta')] },
      { content: 'all three done' },
    ],
    subagents: [{ match: '*', turns: [{ content: 'done slowly', delay_ms: 1000 }] }],
  });
  const { state, workflowId } = await harness.run({ message: 'go', threadId: 'thread-mixed', runId: 'run-1' });
  expect(state.status).toBe('completed');
  expect(state.tasks.map((t) => [t.taskId, t.status])).toEqual([['0.0', 'completed'], ['0.2', 'completed']]);
  expect(state.leadTools).toEqual([{ callId: '0.1', turn: 0, tool: 'bash', status: 'completed', error: null }]);

  const history = await temporal.env().client.workflow.getHandle(workflowId).fetchHistory();
  const work = scheduledActivities(history).filter((a) => a.type === 'runSubagent' || a.type === 'runLeadTool');
  expect(work.map((a) => a.activityId).sort()).toEqual(['0.0', '0.1', '0.2']);
  // All three were scheduled before the first of them completed.
  const firstDone = Math.min(...completedScheduledIds(history).filter((id) => work.some((a) => a.id === id)));
  const firstDoneEvent = (history.events ?? []).find((e) => Number(e.activityTaskCompletedEventAttributes?.scheduledEventId) === firstDone);
  expect(work.every((a) => a.id < Number(firstDoneEvent?.eventId))).toBe(true);

  const messages = await thread(harness, 'thread-mixed');
  expectNoDanglingCalls(messages);
  expect(messages.filter((m) => ToolMessage.isInstance(m)).map((m) => m.content).sort()).toEqual([
    'Task Succeeded. Result: done slowly',
    'Task Succeeded. Result: done slowly',
    'direct\n',
  ]);
});

test('two tasks with the same provider id in one response complete with their own results', async () => {
  const harness = await temporal.start({
    lead: [{ tool_calls: [task('Alpha', 'dup'), task('Beta', 'dup')] }, { content: 'both done' }],
    subagents: [
      { match: 'Alpha', turns: [{ content: 'alpha result' }] },
      { match: 'Beta', turns: [{ content: 'beta result' }] },
    ],
  });
  const { state, workflowId } = await harness.run({ message: 'go', threadId: 'thread-dup', runId: 'run-1' });
  const report = await buildRunReport(harness.stores, state, workflowId);
  expect(report.status).toBe('completed');
  expect(report.tasks.map((t) => [t.task_id, t.status, t.result])).toEqual([
    ['0.0', 'completed', 'alpha result'],
    ['0.1', 'completed', 'beta result'],
  ]);
  expect(report.events).toEqual({ 'subagent.start': 2, 'subagent.step': 2, 'subagent.end': 2 });
  const messages = await thread(harness, 'thread-dup');
  expectNoDanglingCalls(messages);
  const ids = messages.flatMap((m) => (AIMessage.isInstance(m) ? (m.tool_calls ?? []).map((c) => c.id) : []));
  expect(new Set(ids).size).toBe(2);
  expect(ids[0]).toBe('dup');
});

test('a provider id reused across turns keeps both tasks, both results and two start/end pairs', async () => {
  const harness = await temporal.start({
    lead: [{ tool_calls: [task('Alpha', 'call_0')] }, { tool_calls: [task('Beta', 'call_0')] }, { content: 'both done' }],
    subagents: [
      { match: 'Alpha', turns: [{ content: 'alpha result' }] },
      { match: 'Beta', turns: [{ content: 'beta result' }] },
    ],
  });
  const { state, workflowId } = await harness.run({ message: 'go', threadId: 'thread-reuse', runId: 'run-1' });
  const report = await buildRunReport(harness.stores, state, workflowId);
  expect(report.status).toBe('completed');
  expect(report.tasks.map((t) => [t.task_id, t.result])).toEqual([
    ['0.0', 'alpha result'],
    ['1.0', 'beta result'],
  ]);
  const events = await harness.stores.events.listEvents({ runId: 'run-1', threadId: 'thread-reuse', eventTypes: ['subagent.start', 'subagent.end'] });
  expect(events.map((e) => `${e.event}:${e.taskId}`)).toEqual(['subagent.start:0.0', 'subagent.end:0.0', 'subagent.start:1.0', 'subagent.end:1.0']);
  const messages = await thread(harness, 'thread-reuse');
  expectNoDanglingCalls(messages);
  expect(messages.filter((m) => ToolMessage.isInstance(m)).map((m) => m.content)).toEqual([
    'Task Succeeded. Result: alpha result',
    'Task Succeeded. Result: beta result',
  ]);
});

test('a run id reused in another thread keeps its events and results apart', async () => {
  const harness = await temporal.start({ lead: [{ tool_calls: [task('Alpha')] }, { content: 'done' }], subagents: [{ match: '*', turns: [{ content: 'ok' }] }] });
  const first = await harness.run({ message: 'go', threadId: 'thread-one', runId: 'shared-run' });
  const second = await harness.run({ message: 'go', threadId: 'thread-two', runId: 'shared-run' });
  for (const { state, workflowId } of [first, second]) {
    const report = await buildRunReport(harness.stores, state, workflowId);
    expect(report.tasks.map((t) => [t.task_id, t.status, t.result])).toEqual([['0.0', 'completed', 'ok']]);
    expect(report.events).toEqual({ 'subagent.start': 1, 'subagent.step': 1, 'subagent.end': 1 });
  }
  expect(first.state.tasks[0]?.resultRef).not.toBe(second.state.tasks[0]?.resultRef);
});

test('cancelling a run mid-tool closes the call as cancelled, and the next run on the thread succeeds', async () => {
  const harness = await temporal.start({
    lead: [{ tool_calls: [{ name: 'bash', args: { command: 'sleep 30' } }, task('Slow')] }, { content: 'next run answer' }],
    subagents: [{ match: '*', turns: [{ content: 'late', delay_ms: 60_000 }] }],
  }, {}, { dir: keptDir() });
  const started = await harness.client.startRun({ message: 'go', threadId: 'thread-cancel', runId: 'run-1' });
  await waitFor(async () => (await harness.stores.events.listEvents({ runId: 'run-1', eventTypes: ['tool.start', 'subagent.start'] })).length === 2);
  const cancelledAt = Date.now();
  await started.handle.cancel();
  await expect(started.handle.result()).rejects.toBeInstanceOf(WorkflowFailedError);
  expect(Date.now() - cancelledAt).toBeLessThan(10_000);
  const state = await harness.client.getState(started.workflowId);
  expect(state.status).toBe('cancelled');
  expect(state.leadTools.map((t) => t.status)).toEqual(['cancelled']);
  expect(state.tasks.map((t) => t.status)).toEqual(['cancelled']);

  const messages = await thread(harness, 'thread-cancel');
  expectNoDanglingCalls(messages);
  expect(messages.filter((m) => ToolMessage.isInstance(m)).map((m) => m.content).sort()).toEqual(['Task cancelled by user.', 'cancelled']);
  const toolEnd = await harness.stores.events.listEvents({ runId: 'run-1', eventTypes: ['tool.end'] });
  expect(toolEnd.map((e) => (e.payload as { status: string }).status)).toEqual(['cancelled']);

  // A second run on the thread is accepted by the strict scripted model: nothing dangles.
  const next = await secondRun(harness, 'thread-cancel');
  expect(next.state.status).toBe('completed');
  expect(next.state.finalMessageBrief).toBe('next run answer');
});

/**
 * A second run on the same thread and store, answered by a fresh script (each run plays its lead
 * list from the start): the strict scripted model rejects it if the thread holds a dangling call.
 */
async function secondRun(first: Harness, threadId: string) {
  await first.close();
  const harness = await temporal.start({ lead: [{ content: 'next run answer' }] }, {}, { dir: first.dir });
  const next = await harness.run({ message: 'and now?', threadId, runId: 'run-2' });
  const request = harness.recorder.requests.find((r) => r.tags.includes('lead'));
  expect(request?.messages.filter((m) => ToolMessage.isInstance(m)).length).toBeGreaterThan(0);
  return next;
}

test('the lead turn cap leaves no dangling call: calls of the last turn are closed as not run', async () => {
  const harness = await temporal.start(
    { lead: [{ tool_calls: [{ name: 'write_file', args: { path: 'never.txt', content: 'x' } }, task('Never')] }] },
    { agents: { default: { max_turns: 1 } } },
    { dir: keptDir() },
  );
  const { state, workflowId } = await harness.run({ message: 'go', threadId: 'thread-cap', runId: 'run-1' });
  expect(state).toMatchObject({ status: 'failed', stopReason: 'turn_capped', tasks: [] });
  expect(state.leadTools).toEqual([{ callId: '0.0', turn: 0, tool: 'write_file', status: 'failed', error: 'not run: the lead reached max_turns=1' }]);
  const report = await buildRunReport(harness.stores, state, workflowId);
  expect(report.stop_reason).toBe('turn_capped');
  const messages = await thread(harness, 'thread-cap');
  expectNoDanglingCalls(messages);
  expect(messages.filter((m) => ToolMessage.isInstance(m)).map((m) => m.content)).toEqual([
    'not run: the lead reached max_turns=1',
    'not run: the lead reached max_turns=1',
  ]);
  // The write never happened: calls the lead could never read are not run.
  const workspace = join(harness.loaded.config.store.data_dir, 'threads', 'thread-cap', 'user-data', 'workspace');
  expect(() => readFileSync(join(workspace, 'never.txt'))).toThrow();

  const next = await secondRun(harness, 'thread-cap');
  expect(next.state.status).toBe('completed');
});

test('a lead tool error is a failed call the lead reads, and an unknown tool is answered as such', async () => {
  const harness = await temporal.start(
    {
      lead: [
        { tool_calls: [{ name: 'read_file', args: { path: '../../../etc/passwd' } }, { name: 'read_file', args: {} }, { name: 'teleport', args: {} }, { name: 'bash', args: { command: 'echo no' } }] },
        { content: 'handled' },
      ],
    },
    { agents: { default: { tools: ['read_file'] } } },
  );
  const { state, workflowId } = await harness.run({ message: 'go', threadId: 'thread-errors', runId: 'run-1' });
  const report = await buildRunReport(harness.stores, state, workflowId);
  expect(report.status).toBe('completed');
  expect(report.lead_tools.map((t) => [t.call_id, t.tool, t.status])).toEqual([
    ['0.0', 'read_file', 'failed'],
    ['0.1', 'read_file', 'failed'],
  ]);
  expect(report.lead_tools[1]?.error).toContain('Invalid arguments for read_file');
  const answers = (await thread(harness, 'thread-errors')).filter((m): m is ToolMessage => ToolMessage.isInstance(m));
  const byId = new Map(answers.map((m) => [m.tool_call_id, String(m.content)]));
  const calls = (await thread(harness, 'thread-errors')).flatMap((m) => (AIMessage.isInstance(m) ? (m.tool_calls ?? []) : []));
  expect(byId.get(calls[0]?.id ?? '')).toMatch(/^Error: .*outside/i);
  expect(byId.get(calls[2]?.id ?? '')).toBe("Error: Unknown tool 'teleport'. Available: task, ask_clarification, read_file");
  // `bash` is not among this agent's tools: refused, never run.
  expect(byId.get(calls[3]?.id ?? '')).toBe("Error: Unknown tool 'bash'. Available: task, ask_clarification, read_file");
  expect(answers.every((m) => m.status === 'error')).toBe(true);
  // The lead was offered only its allowed tools.
  expect(harness.recorder.requests[0]?.tools).toEqual(['task', 'ask_clarification', 'read_file']);
});

test('web_fetch from the lead: a page on this machine is refused by default and read when private networks are allowed', async () => {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<html><head><title>Release notes</title></head><body><nav>menu</nav><article><h1>Version 2</h1><p>The lead fetched this page itself, directly and without a subagent.</p></article></body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/notes`;
  try {
    const scenario = { lead: [{ tool_calls: [{ name: 'web_fetch', args: { url } }] }, { content: 'read it' }] };
    const guarded = await temporal.start(scenario);
    const refused = await guarded.run({ message: 'fetch', threadId: 'thread-fetch-guarded', runId: 'run-1' });
    expect(refused.state.leadTools).toEqual([expect.objectContaining({ tool: 'web_fetch', status: 'failed' })]);
    expect(refused.state.leadTools[0]?.error).toMatch(/loopback/i);
    await guarded.close();

    const open = await temporal.start(scenario, { web_fetch: { allow_private_networks: true } });
    const fetched = await open.run({ message: 'fetch', threadId: 'thread-fetch-open', runId: 'run-1' });
    expect(fetched.state.leadTools).toEqual([expect.objectContaining({ tool: 'web_fetch', status: 'completed' })]);
    const answer = (await thread(open, 'thread-fetch-open')).find((m) => ToolMessage.isInstance(m));
    expect(answer?.content).toContain('Version 2');
    expect(answer?.content).toContain('The lead fetched this page itself');
    expect(answer?.content).toContain(url);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test('a lead tool that outlives lead_tools.timeout_seconds is a failed call; the run goes on', async () => {
  const harness = await temporal.start(
    { lead: [{ tool_calls: [{ name: 'bash', args: { command: 'sleep 20' } }] }, { content: 'moved on' }] },
    { lead_tools: { timeout_seconds: 1 } },
  );
  const started = Date.now();
  const { state, workflowId } = await harness.run({ message: 'go', threadId: 'thread-tool-timeout', runId: 'run-1' });
  expect(Date.now() - started).toBeLessThan(15_000);
  expect(state.status).toBe('completed');
  expect(state.leadTools).toEqual([{ callId: '0.0', turn: 0, tool: 'bash', status: 'failed', error: 'the tool did not finish within 1 s' }]);
  const report = await buildRunReport(harness.stores, state, workflowId);
  expect(report.final_message).toBe('moved on');
  const answers = (await thread(harness, 'thread-tool-timeout')).filter((m) => ToolMessage.isInstance(m));
  expect(answers.map((m) => m.content)).toEqual(['Error: the tool did not finish within 1 s']);
  const ends = await harness.stores.events.listEvents({ runId: 'run-1', eventTypes: ['tool.end'] });
  expect(ends.map((e) => (e.payload as { status: string }).status)).toEqual(['failed']);
});

test('a thread written by older code with a dangling call is repaired before it reaches the provider', async () => {
  const harness = await temporal.start({ lead: [{ content: 'fine now' }] });
  // What older code left behind: an answered call, then a call nobody answered.
  const old = [
    new HumanMessage({ content: 'earlier question' }),
    new AIMessage({ content: '', tool_calls: [{ id: 'old_1', name: 'task', args: {}, type: 'tool_call' }] }),
    new ToolMessage({ content: 'Task Succeeded. Result: x', tool_call_id: 'old_1', name: 'task' }),
    new AIMessage({ content: '', tool_calls: [{ id: 'old_2', name: 'task', args: {}, type: 'tool_call' }] }),
  ];
  for (const [index, message] of old.entries()) {
    const [stored] = mapChatMessagesToStoredMessages([message]);
    await harness.stores.messages.putMessageIfAbsent({ threadId: 'thread-old', runId: 'old-run', key: `run:old-run:legacy:${index}`, message: stored! });
  }
  const { state } = await harness.run({ message: 'and now?', threadId: 'thread-old', runId: 'run-1' });
  expect(state.status).toBe('completed');
  expect(state.finalMessageBrief).toBe('fine now');
  const sent = harness.recorder.requests[0]?.messages ?? [];
  const answer = sent.find((m) => ToolMessage.isInstance(m) && m.tool_call_id === 'old_2');
  expect(answer?.content).toBe('not run: the run ended before this call was answered');
  // The stored thread is left as it was: the repair is what the provider is sent.
  expect((await thread(harness, 'thread-old')).filter((m) => ToolMessage.isInstance(m))).toHaveLength(1);
});
