/**
 * The store contract: the same cases against the SQLite store (in memory) and the PostgreSQL
 * store (a database of its own per run, dropped at the end), so that the two behave alike.
 *
 * PostgreSQL is found at `TEST_DATABASE_URL` (default `postgres://postgres@127.0.0.1:5432/postgres`,
 * a database the run may create databases from). Where it cannot be reached the PostgreSQL half
 * says why and is skipped, except under CI (`CI` set), where that is a failure.
 */

import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PgStore } from '../src/store/pg-store.js';
import { PG_MIGRATIONS } from '../src/store/pg-migrations.js';
import { SqliteStore } from '../src/store/sqlite-store.js';
import type { Store } from '../src/store/types.js';
import { sessionCases } from './store-contract/chat-cases.js';
import { deskCases } from './store-contract/desk-cases.js';
import { directoryCases } from './store-contract/directory-cases.js';
import { identityCases } from './store-contract/identity-cases.js';
import { messageCases } from './store-contract/message-cases.js';
import { pagingCases } from './store-contract/paging-cases.js';
import { privacyCases } from './store-contract/privacy-cases.js';
import { memberCases } from './store-contract/member-cases.js';
import { routingCases } from './store-contract/routing-cases.js';
import { transactionCases } from './store-contract/transaction-cases.js';

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Runs `work` on a connection to the admin database, then closes it. */
async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Why PostgreSQL cannot be used, or undefined when it can. */
async function postgresUnavailable(): Promise<string | undefined> {
  try {
    await withAdmin((client) => client.query('SELECT 1'));
    return undefined;
  } catch (error) {
    return `PostgreSQL at ${ADMIN_URL} is not reachable: ${error instanceof Error ? error.message : String(error)}`;
  }
}

const unavailable = await postgresUnavailable();
if (unavailable !== undefined) {
  if (process.env.CI) throw new Error(`${unavailable} (CI needs it: the PostgreSQL store contract must run)`);
  console.warn(`store contract: skipping the PostgreSQL half. ${unavailable}`);
}

/** A fresh, uniquely named database on the test server: its name and URL. */
function testDatabase(suffix: string): { name: string; url: string } {
  const name = `kefu_test_${process.pid}_${randomBytes(4).toString('hex')}${suffix}`;
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}

const createDatabase = (name: string): Promise<unknown> => withAdmin((c) => c.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`));
const dropDatabase = (name: string): Promise<unknown> =>
  withAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`));

/** Every case, against the store `current()` answers (a fresh, empty one per case). */
function contract(current: () => Store, kind: 'sqlite' | 'postgres'): void {
  sessionCases(current);
  messageCases(current);
  pagingCases(current);
  identityCases(current, kind);
  directoryCases(current);
  transactionCases(current);
  routingCases(current);
  deskCases(current);
  privacyCases(current);
  memberCases(current);
}

describe('store contract: SQLite', () => {
  let store: SqliteStore | undefined;
  beforeEach(async () => {
    await store?.close();
    store = new SqliteStore(':memory:');
  });
  afterAll(async () => {
    await store?.close();
  });

  it('is the sqlite store', () => {
    expect(store?.kind).toBe('sqlite');
  });
  contract(() => store!, 'sqlite');
});

describe.skipIf(unavailable !== undefined)('store contract: PostgreSQL', () => {
  const database = testDatabase('');
  let store: PgStore | undefined;

  beforeAll(async () => {
    await createDatabase(database.name);
    store = await PgStore.open(database.url, { poolSize: 8 });
  });
  beforeEach(async () => {
    // Empties every table but the schema version, identity counters included: a fresh store per case.
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string }>(
        "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_name <> 'schema_version'",
      );
      await client.query(`TRUNCATE ${rows.map((r) => pg.escapeIdentifier(r.name)).join(', ')} RESTART IDENTITY`);
    } finally {
      await client.end();
    }
  });
  afterAll(async () => {
    await store?.close();
    await dropDatabase(database.name);
  });

  it('is the postgres store, at the newest schema version', () => {
    expect(store?.kind).toBe('postgres');
    expect(store?.schemaVersion).toBe(PG_MIGRATIONS.length);
  });
  it('close is idempotent, and a closed store rejects calls', async () => {
    const other = await PgStore.open(database.url, { poolSize: 1 });
    await Promise.all([other.close(), other.close()]);
    await other.close();
    await expect(other.ping()).rejects.toThrow();
  });
  contract(() => store!, 'postgres');
});

describe.skipIf(unavailable !== undefined)('PostgreSQL migration: nodes starting at once against one empty database migrate it once', () => {
  const database = testDatabase('_m');
  beforeAll(() => createDatabase(database.name));
  afterAll(() => dropDatabase(database.name));

  it('four stores opening at once all end at the newest version, with one schema_version row', async () => {
    const stores = await Promise.all(Array.from({ length: 4 }, () => PgStore.open(database.url, { poolSize: 2 })));
    try {
      expect(stores.map((s) => s.schemaVersion)).toEqual(Array(4).fill(PG_MIGRATIONS.length));
      await stores[0]?.setMeta('k', 'v');
      expect(await stores[3]?.meta('k')).toBe('v');
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
    const reopened = await PgStore.open(database.url);
    expect(reopened.schemaVersion).toBe(PG_MIGRATIONS.length);
    expect(await reopened.meta('k')).toBe('v');
    await reopened.close();
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      expect((await client.query('SELECT version FROM schema_version')).rows).toEqual([{ version: PG_MIGRATIONS.length }]);
    } finally {
      await client.end();
    }
  });

  it('refuses a database whose schema is newer than this server', async () => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      await client.query('UPDATE schema_version SET version = $1', [PG_MIGRATIONS.length + 1]);
    } finally {
      await client.end();
    }
    await expect(PgStore.open(database.url)).rejects.toThrow(/newer than this server/);
  });
});

describe.skipIf(unavailable !== undefined)('PostgreSQL migrations 6 and 7 on a database of version 5', () => {
  const database = testDatabase('_v5');
  beforeAll(() => createDatabase(database.name));
  afterAll(() => dropDatabase(database.name));

  it('agents kept before work for the demo merchant; sessions ended before count as closed on the desk', async () => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      await client.query('CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version (version) VALUES (5);');
      for (const sql of PG_MIGRATIONS.slice(0, 5)) await client.query(sql);
      await client.query("INSERT INTO agents (account, name, password_hash, created_at) VALUES ('carol', 'Carol', 'scrypt$x', 1)");
      await client.query(
        "INSERT INTO sessions (session_id, client_id, mch_id, platform_id, state, agent_id, created_at, ended_at) VALUES ('s-ended', 'v1', 'M1001', 'P01', 'ended', 'agent:carol', 1, 5), ('s-active', 'v1', 'M1001', 'P02', 'active', 'agent:carol', 1, NULL)",
      );
    } finally {
      await client.end();
    }
    const store = await PgStore.open(database.url, { poolSize: 2 });
    try {
      expect(store.schemaVersion).toBe(PG_MIGRATIONS.length);
      expect((await store.identity.agent('carol'))?.merchants).toEqual(['M1001']);
      expect(await store.desk.deskEnded('agent:carol', 10)).toEqual([]);
      const active = await store.chat.session('s-active');
      await store.chat.updateSession({ ...active!, state: 'ended', endedAt: 9, endedBy: 'agent' });
      expect((await store.desk.deskEnded('agent:carol', 10)).map((s) => [s.sessionId, s.endedBy])).toEqual([['s-active', 'agent']]);
    } finally {
      await store.close();
    }
  });
});
