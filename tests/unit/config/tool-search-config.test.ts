import { parseConfigText } from '../../../src/config';
import { problemsOf } from './problems-of';

describe('tool_search config', () => {
  it('is off by default, with 5 results per search', () => {
    expect(parseConfigText('', null).tool_search).toEqual({ enabled: false, max_results: 5 });
    expect(parseConfigText('tool_search: { enabled: true, max_results: 8 }\n', null).tool_search).toEqual({ enabled: true, max_results: 8 });
  });

  it.each([
    ['tool_search: { enabled: yes please }', 'tool_search.enabled: expected boolean, got string'],
    ['tool_search: { enabled: true, max_results: 0 }', 'tool_search.max_results: must be >= 1'],
    ['tool_search: { enabled: true, max_results: 51 }', 'tool_search.max_results: must be <= 50'],
    ['tool_search: { enabled: true, limit: 3 }', 'tool_search.limit: unknown key'],
  ])('rejects %s, naming the field', (text, problem) => {
    expect(problemsOf(`${text}\n`)).toEqual([problem]);
  });
});

describe('an MCP server timeout longer than a lead tool call', () => {
  it('is rejected, naming the server key and the limit it exceeds', () => {
    expect(problemsOf('lead_tools: { timeout_seconds: 120 }\nmcp_servers:\n  slow: { transport: stdio, command: x, timeout_seconds: 600 }\n')).toEqual([
      'mcp_servers.slow.timeout_seconds: 600 is longer than lead_tools.timeout_seconds (120), which bounds every lead tool call: lower it or raise lead_tools.timeout_seconds',
    ]);
  });

  it('is accepted up to the lead tool timeout, and for a disabled server', () => {
    const config = parseConfigText(
      'mcp_servers:\n  fits: { transport: stdio, command: x, timeout_seconds: 300 }\n  off: { transport: stdio, command: y, timeout_seconds: 3600, enabled: false }\n',
      null,
    );
    expect(config.mcp_servers['fits']?.timeout_seconds).toBe(300);
  });
});
