import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mapStoredMessageToChatMessage, ToolMessage } from '@langchain/core/messages';
import type { temporal as proto } from '@temporalio/proto';
import { buildRunReport } from '../../src/cli/run-report';
import type { RecordedModelRequest } from '../support/model-request-recorder';
import type { Harness } from '../support/harness';
import { everythingServerConfig, useMcpHttpServer } from '../support/mcp-servers';
import { useTemporal } from '../support/use-temporal';

const temporal = useTemporal();

const web = useMcpHttpServer();

/** Real servers (server-everything over stdio, the SDK's streamable HTTP on loopback), deferred behind tool_search. */
function toolSearchConfig(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    mcp_servers: { everything: everythingServerConfig({ tools: ['echo', 'get-sum'] }), web: { transport: 'http', url: web().url } },
    tool_search: { enabled: true },
    ...extra,
  };
}

const REFUSAL = 'tool \'everything__echo\' is deferred and its schema is not loaded yet: call tool_search (e.g. query "select:everything__echo") to load it, then call it in your next response';

function boundToolNames(request: RecordedModelRequest | undefined): string[] {
  return (request?.tools ?? []).map((t) => (typeof t === 'string' ? t : ((t as { function?: { name?: string } }).function?.name ?? (t as { name?: string }).name ?? '')));
}

function systemText(request: RecordedModelRequest | undefined): string {
  const system = request?.messages.find((m) => m.type === 'system');
  return system === undefined ? '' : system.text;
}

/** The thread's tool messages, in order. */
async function toolMessages(harness: Harness, threadId: string): Promise<ToolMessage[]> {
  const records = await harness.stores.messages.listMessages(threadId);
  return records.map((r) => mapStoredMessageToChatMessage(r.message)).filter((m): m is ToolMessage => ToolMessage.isInstance(m));
}

/** The subagent requests whose task message contains `text`. */
function taskRequests(harness: Harness, text: string): RecordedModelRequest[] {
  return harness.recorder.requests.filter((r) => !r.tags.includes('lead') && r.messages.some((m) => m.type === 'human' && m.text.includes(text)));
}

test('the lead finds a deferred MCP tool with tool_search, it is bound from the next step and called; a second run starts unpromoted', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'deerflow-test-'));
  try {
    await promoteThenRunAgain(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);

/** Run 1 searches, gets the tool bound and calls it; run 2, on the same thread and store, calls it unloaded. */
async function promoteThenRunAgain(dir: string): Promise<void> {
  const threadId = 'thread-tool-search-lead';
  const first = await temporal.start(
    {
      lead: [
        { tool_calls: [{ name: 'tool_search', args: { query: 'echo back' } }] },
        { tool_calls: [{ name: 'everything__echo', args: { message: 'hi' } }] },
        { content: 'The server said hi.' },
      ],
    },
    toolSearchConfig(),
    { dir },
  );
  const run1 = await first.run({ message: 'say hi through the server', threadId, runId: 'run-1' });
  expect(run1.state).toMatchObject({ status: 'completed', finalMessageBrief: 'The server said hi.', promotedTools: ['everything__echo'] });
  const report = await buildRunReport(first.stores, run1.state, run1.workflowId);
  expect(report.lead_tools).toEqual([
    { call_id: '0.0', tool: 'tool_search', status: 'completed', error: null },
    { call_id: '1.0', tool: 'everything__echo', status: 'completed', error: null },
  ]);

  const [before, after] = first.recorder.requests.filter((r) => r.tags.includes('lead'));
  expect(boundToolNames(before)).toContain('tool_search');
  expect(boundToolNames(before).filter((n) => n.includes('__'))).toEqual([]);
  expect(boundToolNames(after).filter((n) => n.includes('__'))).toEqual(['everything__echo']);
  // The prompt lists what is deferred by name and first line; a promoted tool moves to the bound ones.
  const deferredSection = (request: RecordedModelRequest | undefined) => /^<available-deferred-tools>$[\s\S]*?^<\/available-deferred-tools>$/m.exec(systemText(request))?.[0] ?? '';
  expect(deferredSection(before)).toContain('- everything__echo: Echoes back the input string');
  expect(deferredSection(before)).toContain('- web__shout: Upper-cases a text');
  expect(deferredSection(after)).not.toContain('everything__echo');
  expect(systemText(after)).toMatch(/<direct_work>[\s\S]*`everything__echo`[\s\S]*<\/direct_work>/);

  const [found, echoed] = await toolMessages(first, threadId);
  expect(found).toMatchObject({ name: 'tool_search', status: 'success' });
  expect(found?.text).toContain('"name": "everything__echo"');
  expect(found?.text).toContain('"message"');
  expect(echoed).toMatchObject({ name: 'everything__echo', status: 'success', content: 'Echo: hi' });
  await first.close();

  // Same thread and store, a new run: the promotion was the first run's only.
  const second = await temporal.start(
    { lead: [{ tool_calls: [{ name: 'everything__echo', args: { message: 'again' } }] }, { content: 'It was not loaded.' }] },
    toolSearchConfig(),
    { dir },
  );
  const run2 = await second.run({ message: 'say it again', threadId, runId: 'run-2' });
  expect(run2.state).toMatchObject({ status: 'completed', promotedTools: [] });
  expect(run2.state.leadTools).toEqual([{ callId: '0.0', turn: 0, tool: 'everything__echo', status: 'failed', error: REFUSAL }]);
  const [opening] = second.recorder.requests.filter((r) => r.tags.includes('lead'));
  expect(boundToolNames(opening).filter((n) => n.includes('__'))).toEqual([]);
  const refused = (await toolMessages(second, threadId)).at(-1);
  expect(refused).toMatchObject({ name: 'everything__echo', status: 'error', content: `Error: ${REFUSAL}` });
  await second.close();
}

test('a deferred tool called in the same response as the tool_search that finds it is refused; the promotion holds from the next step', async () => {
  const harness = await temporal.start(
    {
      lead: [
        { tool_calls: [{ name: 'tool_search', args: { query: 'select:everything__echo' } }, { name: 'everything__echo', args: { message: 'too early' } }] },
        { tool_calls: [{ name: 'everything__echo', args: { message: 'now' } }] },
        { content: 'done' },
      ],
    },
    toolSearchConfig(),
  );
  const { state } = await harness.run({ message: 'hurry', threadId: 'thread-tool-search-same-response', runId: 'run-1' });
  expect(state.leadTools.map((t) => [t.callId, t.tool, t.status, t.error])).toEqual([
    ['0.0', 'tool_search', 'completed', null],
    ['0.1', 'everything__echo', 'failed', REFUSAL],
    ['1.0', 'everything__echo', 'completed', null],
  ]);
}, 60_000);

test('a bad tool_search call is an error tool message naming the argument', async () => {
  const harness = await temporal.start({ lead: [{ tool_calls: [{ name: 'tool_search', args: {} }] }, { content: 'done' }] }, toolSearchConfig());
  const { state } = await harness.run({ message: 'search badly', threadId: 'thread-tool-search-bad', runId: 'run-1' });
  expect(state.leadTools).toEqual([{ callId: '0.0', turn: 0, tool: 'tool_search', status: 'failed', error: 'Invalid tool_search arguments: query: is required' }]);
  expect(state.promotedTools).toEqual([]);
}, 60_000);

test('the promotion is run state: it survives continue-as-new', async () => {
  const harness = await temporal.start(
    {
      lead: [
        { tool_calls: [{ name: 'tool_search', args: { query: 'select:everything__echo' } }] },
        { tool_calls: [{ name: 'ls', args: { path: '.' } }], repeat: 15 },
        { tool_calls: [{ name: 'everything__echo', args: { message: 'still here' } }] },
        { content: 'done' },
      ],
    },
    // A small event limit: the run continues as new between the search and the call.
    toolSearchConfig({ agents: { default: { max_turns: 40 } }, loop_detection: { enabled: false }, lead_runs: { history_event_limit: 100 } }),
  );
  const started = await harness.client.startRun({ message: 'look, then echo', threadId: 'thread-tool-search-can', runId: 'run-1' });
  await started.handle.result();
  const state = await harness.client.getState(started.workflowId);
  expect(state).toMatchObject({ status: 'completed', promotedTools: ['everything__echo'] });
  expect(state.leadTools.at(-1)).toMatchObject({ tool: 'everything__echo', status: 'completed', error: null });

  const history: proto.api.history.v1.IHistory = await temporal.env().client.workflow.getHandle(started.workflowId, started.handle.firstExecutionRunId).fetchHistory();
  expect(history.events?.at(-1)?.workflowExecutionContinuedAsNewEventAttributes).toBeTruthy();
}, 120_000);

test('a subagent finds, promotes and calls a deferred MCP tool; the next task starts unpromoted', async () => {
  const harness = await temporal.start(
    {
      lead: [
        { tool_calls: [{ name: 'task', args: { description: 'Echo first', prompt: 'Echo A through the server', subagent_type: 'general-purpose' } }] },
        { tool_calls: [{ name: 'task', args: { description: 'Echo second', prompt: 'Echo B through the server', subagent_type: 'general-purpose' } }] },
        { content: 'done' },
      ],
      subagents: [
        {
          match: 'Echo A',
          turns: [
            { tool_calls: [{ name: 'tool_search', args: { query: '+echo' } }] },
            { tool_calls: [{ name: 'everything__echo', args: { message: 'a' } }] },
            { content: 'The server echoed a [r2 everything__echo]' },
          ],
        },
        { match: 'Echo B', turns: [{ tool_calls: [{ name: 'everything__echo', args: { message: 'b' } }] }, { content: 'It was not loaded.' }] },
      ],
    },
    toolSearchConfig(),
  );
  const { state } = await harness.run({ message: 'echo twice', threadId: 'thread-tool-search-sub', runId: 'run-1' });
  expect(state.tasks.map((t) => [t.taskId, t.status])).toEqual([
    ['0.0', 'completed'],
    ['1.0', 'completed'],
  ]);
  expect(state.tasks[0]?.resultBrief).toContain('The server echoed a');
  // Tasks promote for themselves; the lead's own run state is untouched.
  expect(state.promotedTools).toEqual([]);

  const [a1, a2, a3] = taskRequests(harness, 'Echo A');
  expect(boundToolNames(a1)).toContain('tool_search');
  expect(boundToolNames(a1).filter((n) => n.includes('__'))).toEqual([]);
  expect(systemText(a1)).toContain('- everything__echo: Echoes back the input string');
  expect(boundToolNames(a2).filter((n) => n.includes('__'))).toEqual(['everything__echo']);
  const echoed = a3?.messages.filter((m) => ToolMessage.isInstance(m)).at(-1);
  expect(echoed).toMatchObject({ name: 'everything__echo', status: 'success' });
  expect(echoed?.text).toContain('Echo: a');

  const [b1, b2] = taskRequests(harness, 'Echo B');
  expect(boundToolNames(b1).filter((n) => n.includes('__'))).toEqual([]);
  const refused = b2?.messages.filter((m) => ToolMessage.isInstance(m)).at(-1);
  expect(refused).toMatchObject({ name: 'everything__echo', status: 'error' });
  expect(refused?.text).toContain(`Error: ${REFUSAL}`);
}, 120_000);
