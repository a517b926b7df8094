import { canonicalJson } from '../../../src/receipts';

describe('canonicalJson', () => {
  it('sorts keys at every depth and drops whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: 'x' } })).toBe('{"a":{"c":"x","d":[3,{"y":2,"z":1}]},"b":1}');
  });

  it('gives equal text for equal arguments in any key order', () => {
    expect(canonicalJson({ command: 'ls', description: 'list' })).toBe(canonicalJson({ description: 'list', command: 'ls' }));
  });

  it('sorts integer-like keys as strings, not in engine order', () => {
    expect(canonicalJson({ 9: 'a', 10: 'b', x: 'c' })).toBe('{"10":"b","9":"a","x":"c"}');
  });

  it('follows JSON.stringify for undefined, non-finite numbers, toJSON and bigint', () => {
    expect(canonicalJson({ a: undefined, b: [undefined, Number.NaN, Infinity], c: null })).toBe('{"b":[null,null,null],"c":null}');
    expect(canonicalJson({ when: new Date('2025-01-02T03:04:05Z') })).toBe('{"when":"2025-01-02T03:04:05.000Z"}');
    expect(canonicalJson({ n: BigInt(12) })).toBe('{"n":"12"}');
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson('plain')).toBe('"plain"');
    expect(canonicalJson({})).toBe('{}');
  });
});
