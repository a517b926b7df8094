import { HumanMessage, ToolMessage } from '@langchain/core/messages';
import { PROMOTED_TOOLS_KWARG } from '../../../src/contracts';
import { createToolSearchTool, promotedToolsOf, searchDeferredTools, toolSearchMessage, toolSearchToolSpec } from '../../../src/tools';

const catalog = [
  { name: 'docs__search', description: 'Full-text search over the documentation', inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } },
  { name: 'docs__fetch_page', description: 'Fetches one documentation page', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } },
];

describe('searchDeferredTools', () => {
  it("returns the matched tools' full schemas and promotes them", () => {
    const result = searchDeferredTools({ query: 'select:docs__search' }, catalog, 5);
    expect(result.promoted).toEqual(['docs__search']);
    expect(result.content.split('\n')[0]).toBe('Loaded 1 tool; call it from your next response on:');
    expect(JSON.parse(result.content.slice(result.content.indexOf('\n') + 1))).toEqual([
      { name: 'docs__search', description: 'Full-text search over the documentation', parameters: catalog[0]?.inputSchema },
    ]);
  });

  it('caps the results at max_results', () => {
    expect(searchDeferredTools({ query: 'documentation' }, catalog, 1).promoted).toHaveLength(1);
  });

  it('promotes nothing when nothing matches, and says how to search instead', () => {
    expect(searchDeferredTools({ query: 'teleport' }, catalog, 5)).toEqual({
      content: 'No deferred tool matches "teleport". Try other keywords, or select:<name> with names from the deferred tool list.',
      promoted: [],
    });
  });

  it.each([
    [{}, 'Invalid tool_search arguments: query: is required'],
    [{ query: '  ' }, 'Invalid tool_search arguments: query: must not be empty (keywords, or select:<name>,<name>)'],
    [{ query: 'x'.repeat(501) }, 'Invalid tool_search arguments: query: must be at most 500 characters'],
    [{ query: 'docs', limit: 3 }, 'Invalid tool_search arguments: (arguments): Unrecognized key: "limit"'],
  ])('rejects arguments %j, naming the argument', (args, message) => {
    expect(() => searchDeferredTools(args, catalog, 5)).toThrow(message);
  });
});

describe('the tool_search tool message', () => {
  it('carries the promoted names, which promotedToolsOf reads back from no other message', () => {
    const message = toolSearchMessage({ content: 'Loaded', promoted: ['docs__search'] }, 'call_1');
    expect(message).toMatchObject({ name: 'tool_search', tool_call_id: 'call_1', status: 'success', additional_kwargs: { [PROMOTED_TOOLS_KWARG]: ['docs__search'] } });
    expect(promotedToolsOf(message)).toEqual(['docs__search']);
    expect(promotedToolsOf(new ToolMessage({ content: 'x', tool_call_id: 'c', name: 'ls', additional_kwargs: { [PROMOTED_TOOLS_KWARG]: ['docs__search'] } }))).toEqual([]);
    expect(promotedToolsOf(new HumanMessage('tool_search'))).toEqual([]);
  });

  it('is what the runnable tool answers a call with', async () => {
    const tool = createToolSearchTool(catalog, 5);
    const message: unknown = await tool.invoke({ id: 'call_7', name: 'tool_search', args: { query: 'fetch page' }, type: 'tool_call' });
    expect(ToolMessage.isInstance(message)).toBe(true);
    expect(promotedToolsOf(message as ToolMessage)).toEqual(['docs__fetch_page']);
    expect((message as ToolMessage).tool_call_id).toBe('call_7');
  });

  it('is bound with one required string argument, query', () => {
    const spec = toolSearchToolSpec(5);
    expect(spec.function.name).toBe('tool_search');
    expect(spec.function.description).toContain('at most 5');
    expect(spec.function.parameters).toMatchObject({ type: 'object', properties: { query: { type: 'string' } }, required: ['query'] });
  });
});
