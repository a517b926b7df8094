import { Pool } from 'pg';
import { openStores } from '../../src/store';
import { batchLeaseColumnSpec, batchLeaseSharingSpec, persistenceSpec, storeConformanceSpec, threadOwnerSharingSpec } from './conformance';
import { describePostgres } from './postgres-test-database';

describePostgres('PostgreSQL', (db) => {
  storeConformanceSpec(() => db.freshStores());
  persistenceSpec(async () => {
    const postgresUrl = await db.freshSchemaUrl();
    return () => openStores({ dataDir: '/nonexistent-unused', postgresUrl });
  });
  threadOwnerSharingSpec(async () => {
    const postgresUrl = await db.freshSchemaUrl();
    return () => openStores({ dataDir: '/nonexistent-unused', postgresUrl });
  });
  batchLeaseSharingSpec(async () => {
    const postgresUrl = await db.freshSchemaUrl();
    return () => openStores({ dataDir: '/nonexistent-unused', postgresUrl });
  });
  batchLeaseColumnSpec(async () => {
    const postgresUrl = await db.freshSchemaUrl();
    const stores = await openStores({ dataDir: '/nonexistent-unused', postgresUrl });
    const raw = new Pool({ connectionString: postgresUrl, max: 1 });
    return {
      stores,
      leaseColumn: async (batchId) => {
        // bigint arrives as a string.
        const res = await raw.query<{ key: string; lease_expires_ms: string | null }>('SELECT key, lease_expires_ms FROM batch_items WHERE batch_id = $1', [batchId]);
        return Object.fromEntries(res.rows.map((r) => [r.key, r.lease_expires_ms === null ? null : Number(r.lease_expires_ms)]));
      },
      close: async () => {
        await raw.end();
        await stores.close();
      },
    };
  });
});
