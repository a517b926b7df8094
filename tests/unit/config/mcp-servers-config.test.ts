import { parseConfigText } from '../../../src/config';
import { problemsOf } from './problems-of';

describe('mcp_servers config', () => {
  it('parses stdio and http servers with their defaults', () => {
    const config = parseConfigText(
      ['mcp_servers:', '  files: { transport: stdio, command: files-server, args: [--root, .], env: { TOKEN: "${FILES_TOKEN}" } }', '  docs: { transport: http, url: "http://127.0.0.1:8931/mcp" }'].join('\n'),
      null,
    );
    expect(config.mcp_servers['files']).toEqual({ transport: 'stdio', command: 'files-server', args: ['--root', '.'], env: { TOKEN: '${FILES_TOKEN}' }, enabled: true, tools: null, timeout_seconds: 60 });
    expect(config.mcp_servers['docs']).toMatchObject({ transport: 'http', url: 'http://127.0.0.1:8931/mcp', enabled: true });
  });

  it.each([
    ['an unknown transport', '  a: { transport: websocket, command: x }', 'mcp_servers.a.transport: must be one of stdio, http'],
    ['a stdio server without command', '  a: { transport: stdio }', 'mcp_servers.a.command: is required for transport "stdio"'],
    ['an http server without url', '  a: { transport: http }', 'mcp_servers.a.url: is required for transport "http"'],
    ['a field of the other transport', '  a: { transport: http, url: "http://127.0.0.1/mcp", env: { A: b } }', 'mcp_servers.a.env: is not used by transport "http"'],
    ['a name with a double underscore', '  bad__name: { transport: stdio, command: x }', 'mcp_servers.bad__name: key must be 1-32 characters: letters, digits, - and single _ between them'],
    ['a name with a dot', '  "bad.name": { transport: stdio, command: x }', 'mcp_servers["bad.name"]: key must be 1-32 characters: letters, digits, - and single _ between them'],
    ['an unknown key', '  a: { transport: stdio, command: x, restart: true }', 'mcp_servers.a.restart: unknown key'],
    ['a timeout out of range', '  a: { transport: stdio, command: x, timeout_seconds: 0 }', 'mcp_servers.a.timeout_seconds: must be >= 1'],
  ])('rejects %s, naming the key', (_case, line, problem) => {
    expect(problemsOf(`mcp_servers:\n${line}\n`)).toEqual([problem]);
  });

  it('rejects a lead tool entry that is neither built-in nor an MCP name', () => {
    expect(problemsOf('agents:\n  default: { tools: [read_file, "web__bad name"] }\n')).toEqual([
      'agents.default.tools.1: must be one of ls, read_file, write_file, str_replace, bash, web_fetch, an MCP tool <server>__<tool> or <server>__*',
    ]);
  });
});
