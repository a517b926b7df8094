import { AppConfigSchema, type AppConfigInput } from '../../../src/config';
import { resolveLeadTools } from '../../../src/registry';

const config = (input: AppConfigInput = {}) => AppConfigSchema.parse(input);

describe('resolveLeadTools', () => {
  it('offers every lead tool but bash when host bash is off', () => {
    expect(resolveLeadTools(config(), null)).toEqual(['ls', 'read_file', 'write_file', 'str_replace', 'web_fetch']);
  });

  it('offers bash where the deployment allows host bash', () => {
    expect(resolveLeadTools(config({ sandbox: { allow_host_bash: true } }), null)).toContain('bash');
  });

  it("narrows to the agent's allowlist, and the allowlist cannot add bash to a deployment without it", () => {
    expect(resolveLeadTools(config(), ['read_file', 'bash'])).toEqual(['read_file']);
    expect(resolveLeadTools(config(), [])).toEqual([]);
  });

  it('rejects an unknown tool name in agents.<name>.tools, naming the field', () => {
    const parsed = AppConfigSchema.safeParse({ agents: { researcher: { tools: ['read_file', 'teleport'] } } });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['agents', 'researcher', 'tools', 1]);
  });
});

describe('resolveLeadTools with MCP servers', () => {
  const servers = {
    docs: { transport: 'http' as const, url: 'http://127.0.0.1:8931/mcp' },
    files: { transport: 'stdio' as const, command: 'files-server' },
    off: { transport: 'stdio' as const, command: 'off-server', enabled: false },
  };

  it('names every tool of each enabled server as <server>__* when the agent allows all', () => {
    expect(resolveLeadTools(config({ mcp_servers: servers }), null)).toEqual(['ls', 'read_file', 'write_file', 'str_replace', 'web_fetch', 'docs__*', 'files__*']);
  });

  it("keeps the allowlist's MCP entries of enabled servers only", () => {
    const allowlist = ['read_file', 'docs__search', 'files__*', 'off__*'];
    expect(resolveLeadTools(config({ mcp_servers: servers, agents: { a: { tools: allowlist } } }), allowlist)).toEqual(['read_file', 'docs__search', 'files__*']);
  });

  it('ends with tool_search when tool_search is enabled and the run has MCP entries, whatever the allowlist says', () => {
    const toolSearch = { enabled: true };
    expect(resolveLeadTools(config({ mcp_servers: servers, tool_search: toolSearch }), null).slice(-3)).toEqual(['docs__*', 'files__*', 'tool_search']);
    expect(resolveLeadTools(config({ mcp_servers: servers, tool_search: toolSearch }), ['read_file', 'docs__search'])).toEqual(['read_file', 'docs__search', 'tool_search']);
    expect(resolveLeadTools(config({ mcp_servers: servers, tool_search: toolSearch }), ['read_file'])).toEqual(['read_file']);
    expect(resolveLeadTools(config({ tool_search: toolSearch }), null)).not.toContain('tool_search');
  });

  it('accepts MCP entries in agents.<name>.tools only for configured servers, naming the entry', () => {
    const parsed = AppConfigSchema.safeParse({ mcp_servers: servers, agents: { a: { tools: ['docs__search', 'nowhere__x'] } } });
    expect(parsed.error?.issues.map((i) => [i.path, i.message])).toEqual([[['agents', 'a', 'tools', 1], 'names MCP server "nowhere", which is not in mcp_servers']]);
  });
});
