import { DynamicStructuredTool } from '@langchain/core/tools';
import { bindLeadTools, type McpToolEntry } from '../../../src/mcp';

function entry(server: string, tool: string): McpToolEntry {
  const name = `${server}__${tool}`;
  return {
    server,
    name,
    serverToolName: tool,
    description: `${tool} of ${server}`,
    inputSchema: { type: 'object' },
    tool: new DynamicStructuredTool({ name, description: tool, schema: { type: 'object', properties: {} }, func: async () => '' }),
  };
}
const connected = [entry('docs', 'search'), entry('docs', 'fetch'), entry('web', 'shout')];
const names = (entries: readonly McpToolEntry[]) => entries.map((e) => e.name);

describe('bindLeadTools', () => {
  it('binds every allowed MCP tool when the run does not defer them', () => {
    const binding = bindLeadTools(['read_file', 'docs__*'], connected, []);
    expect(binding.names).toEqual(['read_file', 'docs__search', 'docs__fetch']);
    expect(names(binding.bound)).toEqual(['docs__search', 'docs__fetch']);
    expect(binding.deferred).toEqual([]);
    expect(binding.searchable).toEqual([]);
  });

  it('with tool_search, binds only the promoted MCP tools and defers the rest', () => {
    const binding = bindLeadTools(['read_file', 'docs__*', 'web__shout', 'tool_search'], connected, ['docs__fetch']);
    expect(binding.names).toEqual(['read_file', 'tool_search', 'docs__fetch']);
    expect(names(binding.bound)).toEqual(['docs__fetch']);
    expect(names(binding.deferred)).toEqual(['docs__search', 'web__shout']);
    expect(names(binding.searchable)).toEqual(['docs__search', 'docs__fetch', 'web__shout']);
  });

  it('leaves tool_search out when this worker has no MCP tool to load', () => {
    const binding = bindLeadTools(['read_file', 'down__*', 'tool_search'], connected, []);
    expect(binding.names).toEqual(['read_file']);
    expect(binding.searchable).toEqual([]);
  });

  it('never binds a promoted name the run does not allow', () => {
    expect(bindLeadTools(['docs__search', 'tool_search'], connected, ['web__shout']).bound).toEqual([]);
  });
});
