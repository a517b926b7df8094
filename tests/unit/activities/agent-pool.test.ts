import { AgentPool, identityOf } from '../../../src/activities/agent-pool';

describe('AgentPool', () => {
  let built = 0;
  const build = (shape: string) => () => ({ shape, n: ++built });
  beforeEach(() => {
    built = 0;
  });

  test('an agent given back is the one the next execution of its shape takes; another shape builds its own', () => {
    const pool = new AgentPool<{ shape: string; n: number }>(4);
    const first = pool.take('s', build('s'));
    pool.give('s', first);
    expect(pool.idle).toBe(1);
    expect(pool.take('s', build('s'))).toBe(first);
    expect(pool.idle).toBe(0);
    expect(pool.take('t', build('t'))).toEqual({ shape: 't', n: 2 });
    expect(built).toBe(2);
  });

  test('executions running at once take an agent each', () => {
    const pool = new AgentPool<{ shape: string; n: number }>(4);
    const a = pool.take('s', build('s'));
    const b = pool.take('s', build('s'));
    expect(a).not.toBe(b);
    pool.give('s', a);
    pool.give('s', b);
    expect(pool.idle).toBe(2);
    expect(new Set([pool.take('s', build('s')), pool.take('s', build('s'))])).toEqual(new Set([a, b]));
    expect(built).toBe(2);
  });

  test('past maxIdle the least recently returned shape loses its agents first', () => {
    const pool = new AgentPool<{ shape: string; n: number }>(2);
    const [old1, old2, recent] = [pool.take('old', build('old')), pool.take('old', build('old')), pool.take('recent', build('recent'))];
    pool.give('old', old1);
    pool.give('old', old2);
    pool.give('recent', recent);
    expect(pool.idle).toBe(2);
    expect(pool.take('recent', build('recent'))).toBe(recent);
    // One of the two `old` agents was dropped: the next take of two builds one.
    const taken = [pool.take('old', build('old')), pool.take('old', build('old'))];
    expect(taken.filter((agent) => agent === old1 || agent === old2)).toHaveLength(1);
    expect(built).toBe(4);
    expect(pool.idle).toBe(0);
  });

  test('giving back moves the shape to the most recently used end', () => {
    const pool = new AgentPool<{ shape: string; n: number }>(2);
    const [x, y, z] = [pool.take('x', build('x')), pool.take('y', build('y')), pool.take('x', build('x'))];
    pool.give('x', x);
    pool.give('y', y);
    pool.give('x', z);
    // x was returned last: y is the least recently used and goes.
    expect(pool.idle).toBe(2);
    expect(pool.take('y', build('y'))).not.toBe(y);
    expect(new Set([pool.take('x', build('x')), pool.take('x', build('x'))])).toEqual(new Set([x, z]));
  });
});

test('identityOf: the same number for the same object, another for another', () => {
  const a = {};
  const b = {};
  expect(identityOf(a)).toBe(identityOf(a));
  expect(identityOf(a)).not.toBe(identityOf(b));
});
