import { openStores, type Stores } from '../../src/store';

/** Fresh SQLite stores in memory: nothing on disk, nothing shared with another test. */
export function openMemoryStores(): Promise<Stores> {
  return openStores({ dataDir: '/nonexistent-unused', postgresUrl: null, sqlitePath: ':memory:' });
}
