import { mapStoredMessageToChatMessage, ToolMessage } from '@langchain/core/messages';
import { buildRunReport } from '../../src/cli/run-report';
import type { Harness } from '../support/harness';
import { everythingServerConfig, startMcpHttpServer, useMcpHttpServer } from '../support/mcp-servers';
import { useTemporal } from '../support/use-temporal';

const temporal = useTemporal();

const web = useMcpHttpServer();

/** Real servers: server-everything over stdio and the SDK's streamable HTTP on loopback. */
function mcpServers(): Record<string, unknown> {
  return { everything: everythingServerConfig({ tools: ['echo', 'get-sum'] }), web: { transport: 'http', url: web().url } };
}

/** The thread's tool messages, by tool name. */
async function toolMessages(harness: Harness, threadId: string): Promise<Map<string, ToolMessage>> {
  const records = await harness.stores.messages.listMessages(threadId);
  const tools = records.map((r) => mapStoredMessageToChatMessage(r.message)).filter((m): m is ToolMessage => ToolMessage.isInstance(m));
  return new Map(tools.map((m) => [m.name ?? '', m]));
}

function boundToolNames(tools: readonly unknown[]): string[] {
  return tools.map((t) => (typeof t === 'string' ? t : ((t as { name?: string; function?: { name?: string } }).function?.name ?? (t as { name?: string }).name ?? '')));
}

test('the lead calls an allowed MCP tool directly; a tool its allowlist omits is not bound and its call is refused', async () => {
  const harness = await temporal.start(
    {
      lead: [
        { tool_calls: [{ name: 'everything__echo', args: { message: 'hi' } }, { name: 'everything__get-sum', args: { a: 1, b: 2 } }] },
        { content: 'The server said hi.' },
      ],
    },
    { mcp_servers: mcpServers(), agents: { default: { tools: ['read_file', 'everything__echo', 'web__*'] } } },
  );
  const { state, workflowId } = await harness.run({ message: 'say hi through the server', threadId: 'thread-mcp-lead', runId: 'run-1' });
  const report = await buildRunReport(harness.stores, state, workflowId);
  expect(report).toMatchObject({ status: 'completed', final_message: 'The server said hi.', tasks: [] });
  expect(report.lead_tools).toEqual([{ call_id: '0.0', tool: 'everything__echo', status: 'completed', error: null }]);

  const [first] = harness.recorder.requests.filter((r) => r.tags.includes('lead'));
  expect(boundToolNames(first?.tools ?? [])).toEqual(expect.arrayContaining(['read_file', 'everything__echo', 'web__shout', 'web__wait']));
  expect(boundToolNames(first?.tools ?? [])).not.toContain('everything__get-sum');
  // The prompt lists exactly the tools bound: MCP ones included, the omitted one not.
  const [prompt] = harness.recorder.leadSystemPrompts();
  expect(prompt).toContain('`everything__echo`');
  expect(prompt).toContain('`web__shout`');
  expect(prompt).not.toContain('everything__get-sum');

  const messages = await toolMessages(harness, 'thread-mcp-lead');
  expect(messages.get('everything__echo')).toMatchObject({ content: 'Echo: hi', status: 'success' });
  expect(messages.get('everything__get-sum')?.status).toBe('error');
  expect(String(messages.get('everything__get-sum')?.content)).toMatch(/^Error: Unknown tool 'everything__get-sum'/);
  const end = (await harness.stores.events.listEvents({ runId: 'run-1', threadId: 'thread-mcp-lead' })).find((e) => e.event === 'tool.end');
  expect(end?.payload).toMatchObject({ status: 'completed', output: 'Echo: hi' });
});

test('a subagent calls an MCP tool through the same allow/deny lists as built-in tools, with a receipt', async () => {
  const harness = await temporal.start(
    {
      lead: [
        { tool_calls: [{ name: 'task', args: { description: 'Shout it', prompt: 'Shout: hello', subagent_type: 'shouter' } }] },
        { content: 'done' },
      ],
      subagents: [{ match: 'Shout', turns: [{ tool_calls: [{ name: 'web__shout', args: { text: 'hello' } }] }, { content: 'It is HELLO [r1 web__shout]' }] }],
    },
    {
      mcp_servers: mcpServers(),
      subagents: { custom_agents: { shouter: { description: 'Shouts', system_prompt: 'You shout.', tools: ['web__*', 'read_file'], disallowed_tools: ['web__wait'] } } },
    },
  );
  const { state } = await harness.run({ message: 'shout hello', threadId: 'thread-mcp-sub', runId: 'run-1' });
  expect(state.tasks[0]).toMatchObject({ status: 'completed', resultBrief: expect.stringContaining('It is HELLO') });

  const subagentRequests = harness.recorder.requests.filter((r) => !r.tags.includes('lead'));
  expect(boundToolNames(subagentRequests[0]?.tools ?? []).sort()).toEqual(['read_file', 'web__shout']);
  const answer = subagentRequests[1]?.messages.find((m) => ToolMessage.isInstance(m));
  expect(answer).toMatchObject({ name: 'web__shout', status: 'success' });
  expect(String(answer?.content)).toContain('HELLO');
  expect(String(answer?.content)).toContain('r1');
  expect(state.tasks[0]?.evidence).toMatchObject({ receipts: 1 });
});

test('an MCP server down at worker start: the worker starts, and a call to its tool is an error tool message', async () => {
  const probe = await startMcpHttpServer();
  const down = probe.url;
  await probe.close();
  const harness = await temporal.start(
    { lead: [{ tool_calls: [{ name: 'down__shout', args: { text: 'x' } }] }, { content: 'It is down.' }] },
    { mcp_servers: { down: { transport: 'http', url: down, timeout_seconds: 2 } } },
  );
  const { state, workflowId } = await harness.run({ message: 'use the server', threadId: 'thread-mcp-down', runId: 'run-1' });
  const report = await buildRunReport(harness.stores, state, workflowId);
  expect(report).toMatchObject({ status: 'completed', final_message: 'It is down.' });
  expect(report.lead_tools).toEqual([{ call_id: '0.0', tool: 'down__shout', status: 'failed', error: expect.stringContaining("MCP server 'down' is not connected (failed: fetch failed") }]);
  const message = (await toolMessages(harness, 'thread-mcp-down')).get('down__shout');
  expect(message?.status).toBe('error');
});
