import { SearchAttributeType } from '@temporalio/common';
import { CUSTOM_SEARCH_ATTRIBUTES } from '../../../src/contracts/search-attributes';
import { searchAttributeFlags } from '../../../src/devserver/search-attribute-flags';

describe('searchAttributeFlags', () => {
  it('spells every SDK type the way `temporal server start-dev --search-attribute` expects', () => {
    const all = Object.values(SearchAttributeType).map((type, i) => ({ name: `Attr${i}`, type }));
    expect(searchAttributeFlags(all)).toEqual([
      '--search-attribute', 'Attr0=Text',
      '--search-attribute', 'Attr1=Keyword',
      '--search-attribute', 'Attr2=Int',
      '--search-attribute', 'Attr3=Double',
      '--search-attribute', 'Attr4=Bool',
      '--search-attribute', 'Attr5=Datetime',
      '--search-attribute', 'Attr6=KeywordList',
    ]);
  });

  it('maps our custom attributes', () => {
    expect(searchAttributeFlags(CUSTOM_SEARCH_ATTRIBUTES)).toContain('DeerflowStopReasons=KeywordList');
    expect(searchAttributeFlags(CUSTOM_SEARCH_ATTRIBUTES)).toContain('DeerflowThreadId=Keyword');
  });

  it('rejects an unknown type coming from untyped input', () => {
    const untyped = JSON.parse('[{"name":"Attr","type":"UUID"}]') as Parameters<typeof searchAttributeFlags>[0];
    expect(() => searchAttributeFlags(untyped)).toThrow(/unknown type "UUID"/);
  });

  it('rejects names the CLI would reject', () => {
    expect(() => searchAttributeFlags([{ name: 'Bad-Name', type: 'KEYWORD' }])).toThrow(/Bad-Name/);
  });
});
