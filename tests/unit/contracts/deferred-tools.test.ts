import { awaitsPromotion, deferredToolRefusal, defersMcpTools, promoteTools } from '../../../src/contracts';

describe('deferred tools', () => {
  it('a lead run defers its MCP tools exactly when its snapshot holds tool_search', () => {
    expect(defersMcpTools(['read_file', 'docs__*', 'tool_search'])).toBe(true);
    expect(defersMcpTools(['read_file', 'docs__*'])).toBe(false);
  });

  it('only MCP tools wait for promotion, until promoted', () => {
    expect(awaitsPromotion('docs__search', [])).toBe(true);
    expect(awaitsPromotion('docs__search', ['docs__search'])).toBe(false);
    expect(awaitsPromotion('read_file', [])).toBe(false);
    expect(awaitsPromotion('tool_search', [])).toBe(false);
  });

  it('promotions accumulate in first-promotion order without duplicates', () => {
    expect(promoteTools(['a__x', 'b__y'], ['b__y', 'c__z', 'a__x'])).toEqual(['a__x', 'b__y', 'c__z']);
    expect(promoteTools([], [])).toEqual([]);
  });

  it('a refused call is told how to load the tool', () => {
    expect(deferredToolRefusal('docs__search')).toBe(
      'tool \'docs__search\' is deferred and its schema is not loaded yet: call tool_search (e.g. query "select:docs__search") to load it, then call it in your next response',
    );
  });
});
