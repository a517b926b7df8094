import { turnAt, type Repeatable } from '../../../src/models/turn-cursor';

type T = Repeatable & { id: string };
const ids = (turns: readonly T[], upTo: number): string[] =>
  Array.from({ length: upTo }, (_, p) => {
    const r = turnAt(turns, p);
    return r.kind === 'turn' ? r.turn.id : 'exhausted';
  });

describe('turnAt', () => {
  it('answers each turn once by default, then is exhausted', () => {
    expect(ids([{ id: 'a' }, { id: 'b' }], 3)).toEqual(['a', 'b', 'exhausted']);
  });

  it('repeats a turn N times before moving on', () => {
    expect(ids([{ id: 'a', repeat: 3 }, { id: 'b' }], 5)).toEqual(['a', 'a', 'a', 'b', 'exhausted']);
  });

  it('never moves past repeat: forever', () => {
    expect(ids([{ id: 'a' }, { id: 'b', repeat: 'forever' }, { id: 'c' }], 6)).toEqual(['a', 'b', 'b', 'b', 'b', 'b']);
  });

  it('reports the index in the list and handles an empty list', () => {
    expect(turnAt([{ id: 'a', repeat: 2 }, { id: 'b' }], 2)).toEqual({ kind: 'turn', turn: { id: 'b' }, index: 1 });
    expect(turnAt([], 0)).toEqual({ kind: 'exhausted' });
  });

  it('rejects invalid positions', () => {
    expect(() => turnAt([], -1)).toThrow(RangeError);
    expect(() => turnAt([], 0.5)).toThrow(RangeError);
  });
});
