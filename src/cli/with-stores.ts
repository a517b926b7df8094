import type { LoadedConfig } from '../config';
import { openConfiguredStores, type Stores } from '../store';

/** Opens the configured stores for one command and closes them afterwards. */
export async function withStores<T>(loaded: LoadedConfig, work: (stores: Stores) => Promise<T>): Promise<T> {
  const stores = await openConfiguredStores(loaded.config.store);
  try {
    return await work(stores);
  } finally {
    await stores.close();
  }
}
