import { openStores } from '../../src/store';
import { persistenceSpec, storeConformanceSpec, threadOwnerSharingSpec } from './conformance';
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
});
