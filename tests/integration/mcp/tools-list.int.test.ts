import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { promptLeadText, promptSubagentText } from '../../../src/cli/prompt-command';
import { toolsListText } from '../../../src/cli/tools-command';
import { loadConfig, type LoadedConfig } from '../../../src/config';
import { ToolsListOutputSchema } from '../../../src/contracts';
import { McpToolRegistry } from '../../../src/mcp';
import { CliExit } from '../../../src/cli/load-cli-config';
import { everythingServerConfig, startMcpHttpServer } from '../../support/mcp-servers';

let dir: string;
let loaded: LoadedConfig;
/** The same servers and agents, with tool_search on. */
let deferring: LoadedConfig;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'deerflow-tools-list-'));
  // A port that was just free: nothing listens there.
  const probe = await startMcpHttpServer();
  await probe.close();
  const config = {
    models: [{ name: 'scripted', provider: 'scripted', script: './scenario.yaml' }],
    mcp_servers: {
      everything: everythingServerConfig({ tools: ['echo', 'get-sum'] }),
      down: { transport: 'http', url: probe.url, timeout_seconds: 2 },
      off: { transport: 'stdio', command: 'never-started', enabled: false },
    },
    agents: { narrow: { tools: ['read_file', 'everything__echo'] } },
    subagents: { custom_agents: { summer: { description: 'Adds', system_prompt: 'You add.', tools: ['everything__get-sum'] } } },
  };
  writeFileSync(join(dir, 'config.yaml'), stringify(config));
  writeFileSync(join(dir, 'deferring.yaml'), stringify({ ...config, tool_search: { enabled: true, max_results: 3 } }));
  loaded = loadConfig({ path: join(dir, 'config.yaml'), env: {} });
  deferring = loadConfig({ path: join(dir, 'deferring.yaml'), env: {} });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('deerflow tools list --json: built-in tools, then each MCP server with its status and the tools it gives', async () => {
  const listing = ToolsListOutputSchema.parse(JSON.parse(await toolsListText(loaded, { json: true })));
  expect(listing.agent).toEqual({ kind: 'lead', name: 'default' });
  expect(listing.tools.map((t) => `${t.source}:${t.name}`)).toEqual([
    'builtin:task',
    'builtin:ask_clarification',
    'builtin:ls',
    'builtin:read_file',
    'builtin:write_file',
    'builtin:str_replace',
    'builtin:web_fetch',
    'mcp:everything__echo',
    'mcp:everything__get-sum',
  ]);
  expect(listing.tools.find((t) => t.name === 'everything__echo')).toEqual({
    name: 'everything__echo',
    source: 'mcp',
    server: 'everything',
    binding: 'bound',
    description: 'Echoes back the input string',
  });
  expect(listing.mcp_servers).toEqual([
    { name: 'everything', transport: 'stdio', status: 'connected', reason: null, tools: 2 },
    { name: 'down', transport: 'http', status: 'failed', reason: expect.stringContaining('fetch failed (connect ECONNREFUSED'), tools: 0 },
  ]);
});

test('deerflow tools list --agent / --subagent apply the same allowlists a run does; the text names every server', async () => {
  const narrow = await toolsListText(loaded, { agent: 'narrow' });
  expect(narrow.split('\n')[0]).toBe('Lead agent narrow: 4 tools');
  expect(narrow).toMatch(/^ {2}everything__echo +bound +mcp:everything +Echoes back the input string$/m);
  expect(narrow).not.toContain('everything__get-sum');
  expect(narrow).toContain('MCP servers:\n  everything (stdio): connected, 1 tool for this agent\n  down (http): failed: fetch failed (connect ECONNREFUSED');

  const summer = ToolsListOutputSchema.parse(JSON.parse(await toolsListText(loaded, { subagent: 'summer', json: true })));
  expect(summer.tools.map((t) => t.name)).toEqual(['everything__get-sum']);
  const general = ToolsListOutputSchema.parse(JSON.parse(await toolsListText(loaded, { subagent: 'general-purpose', json: true })));
  expect(general.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['read_file', 'web_fetch', 'everything__echo', 'everything__get-sum']));
  expect(general.tools.map((t) => t.name)).not.toContain('task');

  await expect(toolsListText(loaded, { subagent: 'nobody' })).rejects.toBeInstanceOf(CliExit);
  await expect(toolsListText(loaded, { agent: 'narrow', subagent: 'summer' })).rejects.toThrow('--agent and --subagent cannot be used together');
});

test('deerflow prompt lead lists the MCP tools the lead has in <direct_work>', async () => {
  const mcp = McpToolRegistry.fromConfig(loaded.config, { configDir: dir, warn: () => undefined });
  try {
    await mcp.start();
    const text = promptLeadText(loaded, { agent: 'narrow' }, new Date('2026-01-01T00:00:00Z'), undefined, mcp.entries());
    const directWork = /<direct_work>[\s\S]*<\/direct_work>/.exec(text)?.[0] ?? '';
    expect(directWork).toContain('`everything__echo`');
    expect(directWork).not.toContain('get-sum');
  } finally {
    await mcp.close();
  }
});

test('with tool_search, deerflow tools list shows the MCP tools deferred and tool_search bound, for the lead and subagents', async () => {
  const lead = ToolsListOutputSchema.parse(JSON.parse(await toolsListText(deferring, { json: true })));
  expect(lead.tools.filter((t) => t.binding === 'deferred').map((t) => t.name)).toEqual(['everything__echo', 'everything__get-sum']);
  expect(lead.tools.find((t) => t.name === 'tool_search')).toMatchObject({ source: 'builtin', server: null, binding: 'bound' });
  expect(lead.mcp_servers[0]).toMatchObject({ name: 'everything', status: 'connected', tools: 2 });

  const narrow = await toolsListText(deferring, { agent: 'narrow' });
  expect(narrow).toMatch(/^ {2}everything__echo +deferred +mcp:everything +Echoes back the input string$/m);
  expect(narrow).toMatch(/^ {2}tool_search +bound +built-in +Load deferred tools/m);

  const summer = ToolsListOutputSchema.parse(JSON.parse(await toolsListText(deferring, { subagent: 'summer', json: true })));
  expect(summer.tools.map((t) => [t.name, t.binding])).toEqual([
    ['tool_search', 'bound'],
    ['everything__get-sum', 'deferred'],
  ]);
});

test('with tool_search, deerflow prompt lead and prompt subagent list the deferred tools in <available-deferred-tools>', async () => {
  const mcp = McpToolRegistry.fromConfig(deferring.config, { configDir: dir, warn: () => undefined });
  try {
    await mcp.start();
    const lead = promptLeadText(deferring, { agent: 'narrow' }, new Date('2026-01-01T00:00:00Z'), undefined, mcp.entries());
    expect(/<direct_work>[\s\S]*<\/direct_work>/.exec(lead)?.[0]).not.toContain('everything__echo');
    expect(lead).toContain('<available-deferred-tools>\nThese tools exist but their schemas are not loaded');
    expect(lead).toContain('- everything__echo: Echoes back the input string\n</available-deferred-tools>');
    const subagent = await promptSubagentText(deferring, 'summer', { mcpTools: mcp.entries() });
    expect(subagent).toContain('- everything__get-sum: ');
    expect(subagent).not.toContain('everything__echo');
    expect(await promptSubagentText(loaded, 'summer', { mcpTools: mcp.entries() })).not.toContain('available-deferred-tools');
  } finally {
    await mcp.close();
  }
});
