import { isValidToolName, mcpServerOf, mcpServerPattern, mcpToolName, toolAllowed, toolEntryMatches, toolListIncludes } from '../../../src/contracts';

describe('MCP tool names', () => {
  it('namespaces a tool by its server: <server>__<tool>', () => {
    expect(mcpToolName('everything', 'get-sum')).toBe('everything__get-sum');
    expect(mcpServerOf('everything__get-sum')).toBe('everything');
    expect(mcpServerOf('docs__*')).toBe('docs');
  });

  it('finds no server in a built-in name or a malformed prefix', () => {
    expect(mcpServerOf('read_file')).toBeNull();
    expect(mcpServerOf('__tool')).toBeNull();
    expect(mcpServerOf('bad server__tool')).toBeNull();
  });

  it('accepts as tool names only what providers accept: letters, digits, _ and -, 1 to 64 characters', () => {
    expect(isValidToolName('everything__get-sum')).toBe(true);
    expect(isValidToolName(`a${'b'.repeat(63)}`)).toBe(true);
    for (const bad of ['', 'web__needs.dot', 'has space', 'a/b', `a${'b'.repeat(64)}`, 'ümlaut']) expect(isValidToolName(bad)).toBe(false);
  });
});

describe('tool allow/deny lists', () => {
  it('matches a name exactly, or every tool of a server through <server>__*', () => {
    expect(toolEntryMatches('docs__search', 'docs__search')).toBe(true);
    expect(toolEntryMatches('docs__*', 'docs__search')).toBe(true);
    expect(toolEntryMatches(mcpServerPattern('docs'), 'docs__fetch')).toBe(true);
    expect(toolEntryMatches('docs__*', 'docs__')).toBe(false);
    expect(toolEntryMatches('docs__*', 'docsx__search')).toBe(false);
    expect(toolEntryMatches('doc__*', 'docs__search')).toBe(false);
    expect(toolEntryMatches('read_*', 'read_file')).toBe(false);
  });

  it('null allows everything; a list allows what it names', () => {
    expect(toolAllowed(null, 'anything__at_all')).toBe(true);
    expect(toolAllowed(['read_file', 'web__*'], 'web__shout')).toBe(true);
    expect(toolAllowed(['read_file', 'web__*'], 'everything__echo')).toBe(false);
    expect(toolListIncludes([], 'read_file')).toBe(false);
  });
});
