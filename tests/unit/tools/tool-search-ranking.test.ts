import { rankTools } from '../../../src/tools';

const tools = [
  { name: 'everything__echo', description: 'Echoes back the input string' },
  { name: 'everything__get-sum', description: 'Returns the sum of two numbers' },
  { name: 'everything__printEnv', description: 'Prints all environment variables, helpful for debugging' },
  { name: 'web__shout', description: 'Upper-cases a text' },
  { name: 'web__wait', description: 'Waits ms milliseconds' },
  { name: 'docs__search', description: 'Full-text search over the documentation' },
  { name: 'docs__fetch_page', description: 'Fetches one documentation page by its path' },
];
const names = (query: string, max = 5) => rankTools(query, tools, max).map((t) => t.name);

describe('rankTools', () => {
  it('puts the tool whose name is the query first, by its full name or its own name', () => {
    expect(names('echo')[0]).toBe('everything__echo');
    expect(names('web__wait')[0]).toBe('web__wait');
  });

  it('ranks a name match above a description match', () => {
    // "search" is docs__search's name and only part of the other descriptions.
    expect(names('search')).toEqual(['docs__search']);
    expect(names('page documentation')).toEqual(['docs__fetch_page', 'docs__search']);
  });

  it('matches words of names split at _, -, __ and camelCase, and words of descriptions', () => {
    expect(names('sum')).toEqual(['everything__get-sum']);
    expect(names('env')).toEqual(['everything__printEnv']);
    expect(names('numbers')).toEqual(['everything__get-sum']);
    expect(names('milliseconds')).toEqual(['web__wait']);
  });

  it('adds up the terms of a query, and ignores case', () => {
    expect(names('FETCH the documentation PAGE')[0]).toBe('docs__fetch_page');
  });

  it('matches inside words from three characters on, never shorter', () => {
    expect(names('upper')).toEqual(['web__shout']);
    expect(names('milli')).toEqual(['web__wait']);
    expect(names('wa')).toEqual([]);
    expect(names('ms')).toEqual(['web__wait']);
  });

  it('requires a term prefixed with +', () => {
    expect(names('+docs page')).toEqual(['docs__fetch_page', 'docs__search']);
    expect(names('+nothing page')).toEqual([]);
  });

  it('select: returns exactly the named tools, in the query order, skipping unknown names', () => {
    expect(names('select:web__wait, everything__echo,nope')).toEqual(['web__wait', 'everything__echo']);
    expect(names('SELECT:docs__search')).toEqual(['docs__search']);
    expect(names('select:echo')).toEqual([]);
  });

  it('returns at most maxResults tools, ties ordered by name', () => {
    expect(names('everything', 2)).toEqual(['everything__echo', 'everything__get-sum']);
    expect(names('select:web__wait,web__shout', 1)).toEqual(['web__wait']);
  });

  it('returns nothing for an empty query or one that matches nothing', () => {
    expect(names('   ')).toEqual([]);
    expect(names('teleport')).toEqual([]);
  });

  it('does not depend on the catalog order', () => {
    const reversed = rankTools('documentation', [...tools].reverse(), 5).map((t) => t.name);
    expect(reversed).toEqual(names('documentation'));
  });
});
