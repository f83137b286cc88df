/**
 * The cluster {@link Store}: PostgreSQL through a node-postgres pool, chosen with `DATABASE_URL`.
 * The store creates and migrates its schema when it opens (see `pg-migrations.ts`), so several
 * nodes may start at once against one empty database.
 *
 * Every repository is built over a {@link Queryable}: the pool outside a transaction (each call
 * on whichever connection is free, so calls run in parallel), one connection inside
 * {@link Store.transaction}. Unlike the SQLite store, calls made through the outer store while a
 * transaction runs are not held back: they run on other connections and meet the transaction's
 * row locks.
 * @module
 */

import pg from 'pg';
import { pgChatRepo } from './pg-chat.js';
import { pgDirectoryRepo, pgKeySessionRepo } from './pg-directory.js';
import { pgIdentityRepo } from './pg-identity.js';
import { migratePg } from './pg-migrations.js';
import { firstRow, inTransaction, numberTypes, PoolQueryable, TransactionQueryable, type Queryable } from './pg-queryable.js';
import { pgRecordRepo } from './pg-records.js';
import { pgDeskRepo } from './pg-desk.js';
import { pgPrivacyRepo } from './pg-privacy.js';
import { pgMemberRepo } from './pg-members.js';
import type { MemberRepo } from './member-types.js';
import type { DeskRepo } from './desk-types.js';
import type { PrivacyRepo } from './privacy-types.js';
import type { Async, ChatRepo, DirectoryRepo, IdentityRepo, KeySessionRepo, RecordRepo, Store } from './types.js';

/** How a {@link PgStore} connects. */
export interface PgStoreOptions {
  /** The most connections the pool opens (default 10). */
  poolSize?: number;
  /**
   * Told about an error on an idle pooled connection (the server restarting, say); the pool drops
   * that connection and opens another when needed. Such errors are ignored by default.
   */
  onIdleError?: (error: Error) => void;
}

/** A {@link Store} view whose repositories run on one {@link Queryable}. */
class PgView implements Store {
  readonly kind = 'postgres' as const;
  readonly identity: Async<IdentityRepo>;
  readonly keys: Async<KeySessionRepo>;
  readonly directory: Async<DirectoryRepo>;
  readonly chat: Async<ChatRepo>;
  readonly records: Async<RecordRepo>;
  readonly desk: Async<DeskRepo>;
  readonly privacy: Async<PrivacyRepo>;
  readonly members: Async<MemberRepo>;

  /**
   * @param db - where the repositories run their SQL.
   * @param begin - how {@link Store.transaction} starts one.
   */
  constructor(
    private readonly db: Queryable,
    private readonly begin: <T>(fn: (tx: Store) => Promise<T>) => Promise<T>,
  ) {
    this.identity = pgIdentityRepo(db);
    this.keys = pgKeySessionRepo(db);
    this.directory = pgDirectoryRepo(db);
    this.chat = pgChatRepo(db);
    this.records = pgRecordRepo(db);
    this.desk = pgDeskRepo(db);
    this.privacy = pgPrivacyRepo(db);
    this.members = pgMemberRepo(db);
  }

  /** {@inheritDoc Store.meta} */
  async meta(key: string): Promise<string | undefined> {
    return (await firstRow<{ value: string }>(this.db, 'SELECT value FROM meta WHERE key = $1', [key]))?.value;
  }

  /** {@inheritDoc Store.setMeta} */
  async setMeta(key: string, value: string): Promise<void> {
    await this.db.query('INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value', [key, value]);
  }

  /** {@inheritDoc Store.metaOnce} */
  async metaOnce(key: string, value: string): Promise<string> {
    await this.db.query('INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [key, value]);
    return (await firstRow<{ value: string }>(this.db, 'SELECT value FROM meta WHERE key = $1', [key]))?.value ?? value;
  }

  /** {@inheritDoc Store.transaction} */
  transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T> {
    return this.begin(fn);
  }

  /** {@inheritDoc Store.ping} */
  async ping(): Promise<void> {
    await this.db.query('SELECT 1');
  }

  /** {@inheritDoc Store.close} */
  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** A {@link Store} on PostgreSQL. */
export class PgStore extends PgView {
  private closing: Promise<void> | undefined;

  private constructor(
    private readonly pool: pg.Pool,
    /** The schema version after the start-up migration. */
    readonly schemaVersion: number,
  ) {
    const self: { store?: PgStore } = {};
    super(new PoolQueryable(pool), (fn) => self.store!.runTransaction(fn));
    self.store = this;
  }

  /**
   * Connects, then creates or migrates the schema.
   * @param url - a `postgres://` connection URL (`DATABASE_URL`).
   * @param options - the pool's size and where idle connection errors go.
   * @throws Error when the database cannot be reached or migrated (the pool is closed then).
   */
  static async open(url: string, options: PgStoreOptions = {}): Promise<PgStore> {
    const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10, types: numberTypes() });
    const onIdleError = options.onIdleError ?? (() => undefined);
    pool.on('error', (error) => onIdleError(error));
    try {
      const client = await pool.connect();
      let schemaVersion: number;
      try {
        schemaVersion = await migratePg(client);
      } finally {
        client.release();
      }
      return new PgStore(pool, schemaVersion);
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw error;
    }
  }

  /** {@inheritDoc Store.close} */
  override close(): Promise<void> {
    this.closing ??= this.pool.end();
    return this.closing;
  }

  /**
   * BEGIN on one connection, `fn` on a view bound to it, COMMIT (or ROLLBACK when `fn` rejects or
   * a statement in it failed), the connection back to the pool.
   */
  private runTransaction<T>(fn: (tx: Store) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, async (client) => {
      const connection = new TransactionQueryable(client);
      const tx = new PgView(connection, () => Promise.reject(new Error('transactions do not nest')));
      try {
        return await fn(tx);
      } finally {
        await connection.end();
      }
    });
  }
}
