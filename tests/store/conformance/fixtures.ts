import { AIMessage, HumanMessage, type StoredMessage } from '@langchain/core/messages';
import type { NewRunEvent, Stores } from '../../../src/store';

/** Opens a fresh, empty set of stores (one backend). Each call must not see another call's data. */
export type StoresInit = () => Promise<Stores>;

/** A `subagent.step` event of run-1 / task call_a whose payload is `{ key: dedupeKey }` unless overridden. */
export function event(dedupeKey: string, overrides: Partial<NewRunEvent> = {}): NewRunEvent {
  return {
    dedupeKey,
    runId: 'run-1',
    threadId: 'thread-1',
    category: 'subagent',
    event: 'subagent.step',
    taskId: 'call_a',
    payload: { key: dedupeKey },
    ...overrides,
  };
}

export const human = (text: string): StoredMessage => new HumanMessage(text).toDict();
export const aiText = (text: string): StoredMessage => new AIMessage(text).toDict();

/** UTC ISO 8601 with milliseconds and `Z`, as every backend reports timestamps. */
export const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * Registers beforeEach/afterEach that open fresh stores for every test and close them after.
 * Returns a getter for the current test's stores.
 */
export function useStores(init: StoresInit): () => Stores {
  let current: Stores | null = null;
  beforeEach(async () => {
    current = await init();
  });
  afterEach(async () => {
    await current?.close();
    current = null;
  });
  return () => {
    if (current === null) throw new Error('stores are only open inside a test');
    return current;
  };
}
