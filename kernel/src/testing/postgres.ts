import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The server tests use; override with TESTKEEPER_TEST_PG_URL. Database `test` is the admin entry. */
export const TEST_PG_URL = process.env.TESTKEEPER_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

let reachable: Promise<string | null> | undefined;

/** null when PostgreSQL answers, otherwise the reason it does not. Checked once per process. */
export function postgresUnavailableReason(): Promise<string | null> {
  reachable ??= (async () => {
    const client = new pg.Client({ connectionString: TEST_PG_URL, connectionTimeoutMillis: 3000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return null;
    } catch (err) {
      return `PostgreSQL at ${TEST_PG_URL.replace(/\/\/[^@]*@/, '//')} is not reachable: ${(err as Error).message}`;
    } finally {
      await client.end().catch(() => undefined);
    }
  })();
  return reachable;
}

/** Creates a throwaway database and returns its URL and a function that drops it. */
export async function createTempDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `tk_test_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_PG_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(TEST_PG_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: TEST_PG_URL });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
