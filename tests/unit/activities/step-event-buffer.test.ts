import { StepEventBuffer } from '../../../src/activities/step-event-buffer';
import type { NewRunEvent, RunEventStore } from '../../../src/store';
import { itemExecution } from '../../store/conformance/batch-fixtures';

const step = (index: number) => ({ task_id: 'k', message_index: index, kind: 'ai' as const, text: `step ${index}`, truncated: false });

/** A store whose writes wait until the test lets them through: the oldest, or the newest. */
function heldStore() {
  const stored: NewRunEvent[] = [];
  const held: Array<() => void> = [];
  const asked = () => held.length;
  const store = {
    putBatch: (rows: readonly NewRunEvent[]) =>
      new Promise((resolve) => {
        held.push(() => {
          stored.push(...rows);
          resolve([]);
        });
      }),
    listEvents: () => Promise.resolve([]),
  } as unknown as RunEventStore;
  return { store, stored, asked, release: () => held.shift()?.(), releaseNewest: () => held.pop()?.() };
}

test('a flush with nothing pending waits for the write an earlier flush started', async () => {
  const { store, stored, release } = heldStore();
  const buffer = new StepEventBuffer(store, itemExecution('k'));
  await buffer.add(step(0), null);
  void buffer.flush();
  let last = false;
  const lastFlush = buffer.flush().then(() => {
    last = true;
  });
  await new Promise((resolve) => setImmediate(resolve));
  // The rows are still being written: the execution's last flush must not end before them.
  expect(last).toBe(false);
  release();
  await lastFlush;
  expect(stored.map((r) => (r.payload as { message_index: number }).message_index)).toEqual([0]);
});

test('a flush with rows of its own writes them at once, beside a write already in flight, and waits for both', async () => {
  const { store, stored, asked, release, releaseNewest } = heldStore();
  const buffer = new StepEventBuffer(store, itemExecution('k'));
  await buffer.add(step(0), null);
  void buffer.flush();
  await buffer.add(step(1), null);
  let done = false;
  const second = buffer.flush().then(() => {
    done = true;
  });
  // Not queued behind the first write: both are asked for, so a store can commit them together.
  expect(asked()).toBe(2);
  releaseNewest();
  await new Promise((resolve) => setImmediate(resolve));
  expect(done).toBe(false);
  release();
  await second;
  expect(stored.map((r) => (r.payload as { message_index: number }).message_index)).toEqual([1, 0]);
});

test('the last of three flushes waits for the first write too, when the writes between them end first', async () => {
  const { store, stored, asked, release, releaseNewest } = heldStore();
  const buffer = new StepEventBuffer(store, itemExecution('k'));
  for (const index of [0, 1, 2]) {
    await buffer.add(step(index), null);
    void buffer.flush();
  }
  let done = false;
  const last = buffer.flush().then(() => {
    done = true;
  });
  expect(asked()).toBe(3);
  releaseNewest();
  releaseNewest();
  await new Promise((resolve) => setImmediate(resolve));
  // Rows 2 and 1 are stored; row 0 is still being written.
  expect(done).toBe(false);
  release();
  await last;
  expect(stored.map((r) => (r.payload as { message_index: number }).message_index)).toEqual([2, 1, 0]);
});
