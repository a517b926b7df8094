import type { Caller } from '../../src/gateway';
import { StreamSlots } from '../../src/gateway/stream-slots';

describe('StreamSlots', () => {
  const alice: Caller = { userId: 'alice', scoped: true };
  const bob: Caller = { userId: 'bob', scoped: true };

  it('gives each caller `limit` slots, independently of other callers', () => {
    const slots = new StreamSlots(2);
    expect(slots.acquire(alice)).not.toBeNull();
    expect(slots.acquire(alice)).not.toBeNull();
    expect(slots.acquire(alice)).toBeNull();
    expect(slots.acquire(bob)).not.toBeNull();
  });

  it('frees a slot on release, once however often release is called', () => {
    const slots = new StreamSlots(2);
    const first = slots.acquire(alice);
    expect(slots.acquire(alice)).not.toBeNull();
    first?.();
    first?.();
    expect(slots.acquire(alice)).not.toBeNull();
    expect(slots.acquire(alice)).toBeNull();
  });

  it('counts every token of a user, and the unscoped operator, as one caller', () => {
    const slots = new StreamSlots(1);
    const operator: Caller = { userId: 'default', scoped: false };
    expect(slots.acquire(operator)).not.toBeNull();
    expect(slots.acquire({ userId: 'default', scoped: false })).toBeNull();
    expect(slots.acquire(alice)).not.toBeNull();
    expect(slots.acquire({ ...alice })).toBeNull();
  });
});
