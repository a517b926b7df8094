import { Pool } from 'pg';
import { openStores, type Stores } from '../../src/store';

/** What a PostgreSQL test file gets: fresh schemas in the test database, dropped after the file. */
export interface PostgresTestDatabase {
  /** A URL whose connections use a new, empty schema (`search_path`). */
  freshSchemaUrl(): Promise<string>;
  /** Stores on a new, empty schema. */
  freshStores(): Promise<Stores>;
}

const HOW_TO_RUN = 'DEERFLOW_TEST_POSTGRES_URL=$(scripts/postgres-for-tests.sh) npm test';

/**
 * Declares a describe block that runs against the PostgreSQL server at DEERFLOW_TEST_POSTGRES_URL.
 * Each test file works in schemas of its own, so files run in parallel. Without the URL the block
 * is skipped with a loud warning, or fails when DEERFLOW_REQUIRE_POSTGRES=1 (CI).
 */
export function describePostgres(name: string, body: (db: PostgresTestDatabase) => void): void {
  const url = process.env.DEERFLOW_TEST_POSTGRES_URL ?? '';
  if (url === '') {
    if (process.env.DEERFLOW_REQUIRE_POSTGRES === '1') {
      describe(name, () => {
        it('needs a PostgreSQL server', () => {
          throw new Error(`DEERFLOW_REQUIRE_POSTGRES=1 but DEERFLOW_TEST_POSTGRES_URL is not set; run: ${HOW_TO_RUN}`);
        });
      });
      return;
    }
    console.warn(
      `\n*** PostgreSQL store tests SKIPPED (${name}): DEERFLOW_TEST_POSTGRES_URL is not set. ***\n` +
        `*** Run them with: ${HOW_TO_RUN} ***\n`,
    );
    describe.skip(name, () => body({ freshSchemaUrl: () => Promise.reject(new Error('skipped')), freshStores: () => Promise.reject(new Error('skipped')) }));
    return;
  }

  const admin = new Pool({ connectionString: url, max: 2 });
  const schemas: string[] = [];
  const prefix = `t${process.pid}_${Date.now().toString(36)}`;
  const freshSchemaUrl = async (): Promise<string> => {
    const schema = `${prefix}_${schemas.length}`;
    schemas.push(schema);
    await admin.query(`CREATE SCHEMA ${schema}`);
    const withSchema = new URL(url);
    withSchema.searchParams.set('options', `-c search_path=${schema}`);
    return withSchema.toString();
  };
  describe(name, () => {
    afterAll(async () => {
      for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    });
    body({
      freshSchemaUrl,
      freshStores: async () => openStores({ dataDir: '/nonexistent-unused', postgresUrl: await freshSchemaUrl() }),
    });
  });
}
