import { BoundedMap } from '../../../src/contracts/bounded-map';

describe('BoundedMap', () => {
  it('evicts the oldest insert; set keeps a key in place, touch moves it to the end', () => {
    const m = new BoundedMap<string | null, number>(2);
    expect(m.set('a', 1)).toEqual([]);
    expect(m.set(null, 2)).toEqual([]);
    expect(m.set('a', 3)).toEqual([]);
    expect(m.set('c', 4)).toEqual(['a']);
    expect(m.touch(null, 5)).toEqual([]);
    expect(m.set('d', 6)).toEqual(['c']);
    expect([...m.entries()]).toEqual([[null, 5], ['d', 6]]);
    expect([m.pop(null), m.pop(null), m.size]).toEqual([5, undefined, 1]);
    expect(() => new BoundedMap(0)).toThrow(RangeError);
  });
});
