import { BatchSlotArbiter } from '../../../src/workflows/batch-slot-arbiter';

test('grants at most maxRunning slots in request order; a repeated request changes nothing', () => {
  const slots = new BatchSlotArbiter(2);
  for (const key of ['a', 'b', 'a', 'c', 'd']) slots.request(key);
  expect(slots.grant()).toEqual(['a', 'b']);
  expect(slots.running).toBe(2);
  // A holder asking again keeps its slot and does not queue behind others.
  slots.request('a');
  expect(slots.grant()).toEqual([]);
  slots.release('a');
  expect(slots.grant()).toEqual(['c']);
  expect(slots.running).toBe(2);
});

test("an item's end frees its slot and its place in the queue", () => {
  const slots = new BatchSlotArbiter(1);
  for (const key of ['a', 'b', 'c']) slots.request(key);
  expect(slots.grant()).toEqual(['a']);
  // b ends while waiting: it never gets a slot; a's end lets c run.
  slots.ended('b');
  slots.ended('a');
  expect(slots.running).toBe(0);
  expect(slots.grant()).toEqual(['c']);
  expect(slots.grant()).toEqual([]);
});

test('a grant that never reached its item is released and can be asked for again', () => {
  const slots = new BatchSlotArbiter(1);
  slots.request('a');
  expect(slots.grant()).toEqual(['a']);
  slots.release('a');
  slots.request('b');
  slots.request('a');
  expect(slots.grant()).toEqual(['b']);
});

test('a new item holds a free slot from its start; waiting items come first', () => {
  const slots = new BatchSlotArbiter(2);
  expect(slots.free).toBe(2);
  slots.hold('a');
  expect(slots.running).toBe(1);
  slots.request('b');
  // b waits for the one slot left: no new item may take it.
  expect(slots.free).toBe(0);
  expect(() => slots.hold('c')).toThrow('no free running slot for c');
  expect(slots.grant()).toEqual(['b']);
  // A held slot is given back like a granted one.
  slots.release('a');
  expect(slots.free).toBe(1);
  slots.hold('c');
  slots.ended('b');
  expect(slots.running).toBe(1);
  expect(slots.free).toBe(1);
});
