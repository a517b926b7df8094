import type { LoadedConfig } from '../config';
import { openStores, type Stores } from '../store';

/** Opens the configured stores for one command and closes them afterwards. */
export async function withStores<T>(loaded: LoadedConfig, work: (stores: Stores) => Promise<T>): Promise<T> {
  const stores = await openStores({
    dataDir: loaded.config.store.data_dir,
    postgresUrl: loaded.config.store.postgres_url,
    sqliteSynchronous: loaded.config.store.sqlite_synchronous,
  });
  try {
    return await work(stores);
  } finally {
    await stores.close();
  }
}
