/**
 * Opens the configured store: PostgreSQL when `DATABASE_URL` is set (the `pg` driver is loaded
 * only then), else the embedded SQLite file `DATA_DIR/kefu.db` (or memory, for tests).
 * @module
 */

import { join } from 'node:path';
import type { ServerConfig } from '../config.js';
import { generateKeys, isServerKeys, loadOrCreateKeys, type ServerKeys } from '../keys.js';
import { SqliteStore } from './sqlite-store.js';
import type { Store } from './types.js';

/** Opens (and migrates) the store `config` names. */
export async function openStore(config: Pick<ServerConfig, 'databaseUrl' | 'memoryDb' | 'dataDir'> & Partial<Pick<ServerConfig, 'sqliteSynchronous'>>): Promise<Store> {
  if (config.databaseUrl !== '') {
    const { PgStore } = await import('./pg-store.js');
    return PgStore.open(config.databaseUrl);
  }
  return new SqliteStore(config.memoryDb ? ':memory:' : join(config.dataDir, 'kefu.db'), { synchronous: config.sqliteSynchronous ?? 'full' });
}

const KEYS_META = 'server_keys';

/**
 * The server's keys: with PostgreSQL, kept in the database (every node of a cluster signs and
 * decrypts with the same ones; the first node to start makes them); alone, in `DATA_DIR/keys.json`.
 */
export async function serverKeysOf(store: Store, dataDir: string): Promise<ServerKeys> {
  if (store.kind !== 'postgres') return loadOrCreateKeys(dataDir);
  const stored = await store.metaOnce(KEYS_META, JSON.stringify(generateKeys()));
  const parsed: unknown = JSON.parse(stored);
  if (!isServerKeys(parsed)) throw new Error(`the database's ${KEYS_META} is not a valid key set (it is never overwritten)`);
  return { publicKey: parsed.publicKey, privateKeyPem: parsed.privateKeyPem, secret: parsed.secret };
}
