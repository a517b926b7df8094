import { openStores, type Stores } from '../../src/store';
import { useStores } from '../store/conformance/fixtures';

/** Fresh SQLite stores in memory: nothing on disk, nothing shared with another test. */
export function openMemoryStores(): Promise<Stores> {
  return openStores({ dataDir: '/nonexistent-unused', postgresUrl: null, sqlitePath: ':memory:' });
}

/**
 * Fresh in-memory stores for each test of the enclosing `describe` (or file), closed after it
 * ({@link useStores}). Call it before the block's own hooks, so that they already see the stores.
 */
export function useMemoryStores(): () => Stores {
  return useStores(openMemoryStores);
}
