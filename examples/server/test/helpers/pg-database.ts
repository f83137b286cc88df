/**
 * A throwaway PostgreSQL database for tests that run the server on PostgreSQL: made fresh on the
 * test server (`TEST_DATABASE_URL`, default `postgres://postgres@127.0.0.1:5432/postgres`) and
 * dropped afterwards.
 * @module
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The PostgreSQL server the tests use (its admin database; each test makes its own). */
export const TEST_DATABASE_URL = process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Why PostgreSQL at {@link TEST_DATABASE_URL} cannot be used, or null when it answers. */
export async function postgresUnavailable(): Promise<string | null> {
  try {
    await withAdmin((client) => client.query('SELECT 1'));
    return null;
  } catch (error) {
    return `PostgreSQL does not answer at ${TEST_DATABASE_URL} (${error instanceof Error ? error.message : String(error)})`;
  }
}

/** A fresh database: its URL, and `drop()` to remove it (connections still open are ended). */
export interface TestDatabase {
  /** `postgres://.../<name>`. */
  url: string;
  /** Drops the database. */
  drop(): Promise<void>;
}

/**
 * Creates a fresh, uniquely named database.
 * @param prefix - the start of its name (letters, digits, _)
 */
export async function freshDatabase(prefix: string): Promise<TestDatabase> {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  await withAdmin((c) => c.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`));
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => withAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`)).then(() => undefined),
  };
}
