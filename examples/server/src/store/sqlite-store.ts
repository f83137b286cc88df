/**
 * The embedded default {@link Store}: SQLite through better-sqlite3, a file `DATA_DIR/kefu.db`
 * (WAL mode) or `:memory:` for tests. The schema is migrated at open.
 *
 * The repositories run synchronously in the process; {@link SqliteStore} hands their answers out
 * as promises. A {@link Store.transaction} holds SQLite's one write transaction across the awaits
 * of its function, so the store queues every other call until it ends: nothing made outside the
 * transaction can slip into it (and be rolled back with it).
 * @module
 */

import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from './migrations.js';
import { sqliteChatRepo } from './sqlite-chat.js';
import { sqliteDirectoryRepo, sqliteKeySessionRepo } from './sqlite-directory.js';
import { sqliteIdentityRepo } from './sqlite-identity.js';
import { sqliteRecordRepo } from './sqlite-records.js';
import { sqliteDeskRepo } from './sqlite-desk.js';
import { sqlitePrivacyRepo } from './sqlite-privacy.js';
import { sqliteMemberRepo } from './sqlite-members.js';
import type { MemberRepo } from './member-types.js';
import type { DeskRepo } from './desk-types.js';
import type { PrivacyRepo } from './privacy-types.js';
import type { Async, ChatRepo, DirectoryRepo, IdentityRepo, KeySessionRepo, RecordRepo, Store } from './types.js';

/** Runs synchronous work, or queues it behind an open transaction. */
type Runner = <T>(work: () => T) => Promise<T>;

/** Wraps each method of a synchronous repository so that it runs through `run` and answers a promise. */
function asyncRepo<R extends object>(repo: R, run: Runner): Async<R> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(repo)) {
    out[name] = typeof value === 'function' ? (...args: unknown[]) => run(() => (value as (...a: unknown[]) => unknown).apply(repo, args)) : value;
  }
  return out as Async<R>;
}

/** The synchronous repositories of one database. */
interface SyncRepos {
  identity: IdentityRepo;
  keys: KeySessionRepo;
  directory: DirectoryRepo;
  chat: ChatRepo;
  records: RecordRepo;
  desk: DeskRepo;
  privacy: PrivacyRepo;
  members: MemberRepo;
  meta(key: string): string | undefined;
  setMeta(key: string, value: string): void;
  metaOnce(key: string, value: string): string;
}

function openRepos(db: Database.Database): SyncRepos {
  const getMeta = db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?');
  const putMeta = db.prepare<[string, string]>(
    'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  );
  const addMeta = db.prepare<[string, string]>('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING');
  return {
    keys: sqliteKeySessionRepo(db),
    directory: sqliteDirectoryRepo(db),
    chat: sqliteChatRepo(db),
    records: sqliteRecordRepo(db),
    desk: sqliteDeskRepo(db),
    privacy: sqlitePrivacyRepo(db),
    members: sqliteMemberRepo(db),
    identity: sqliteIdentityRepo(db),
    meta: (key) => getMeta.get(key)?.value,
    setMeta: (key, value) => {
      putMeta.run(key, value);
    },
    metaOnce: (key, value) => {
      addMeta.run(key, value);
      return getMeta.get(key)?.value ?? value;
    },
  };
}

/** A {@link Store} view of the repositories whose calls go through `run`. */
class SqliteView implements Store {
  readonly kind = 'sqlite' as const;
  readonly identity: Async<IdentityRepo>;
  readonly keys: Async<KeySessionRepo>;
  readonly directory: Async<DirectoryRepo>;
  readonly chat: Async<ChatRepo>;
  readonly records: Async<RecordRepo>;
  readonly desk: Async<DeskRepo>;
  readonly privacy: Async<PrivacyRepo>;
  readonly members: Async<MemberRepo>;

  constructor(
    protected readonly repos: SyncRepos,
    protected readonly run: Runner,
    private readonly begin: <T>(fn: (tx: Store) => Promise<T>) => Promise<T>,
  ) {
    this.identity = asyncRepo(repos.identity, run);
    this.keys = asyncRepo(repos.keys, run);
    this.directory = asyncRepo(repos.directory, run);
    this.chat = asyncRepo(repos.chat, run);
    this.records = asyncRepo(repos.records, run);
    this.desk = asyncRepo(repos.desk, run);
    this.privacy = asyncRepo(repos.privacy, run);
    this.members = asyncRepo(repos.members, run);
  }

  /** {@inheritDoc Store.meta} */
  meta(key: string): Promise<string | undefined> {
    return this.run(() => this.repos.meta(key));
  }

  /** {@inheritDoc Store.setMeta} */
  setMeta(key: string, value: string): Promise<void> {
    return this.run(() => this.repos.setMeta(key, value));
  }

  /** {@inheritDoc Store.metaOnce} */
  metaOnce(key: string, value: string): Promise<string> {
    return this.run(() => this.repos.metaOnce(key, value));
  }

  /** {@inheritDoc Store.transaction} */
  transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T> {
    return this.begin(fn);
  }

  /** {@inheritDoc Store.ping} */
  ping(): Promise<void> {
    return this.run(() => {
      this.repos.meta('schema-check');
    });
  }

  /** {@inheritDoc Store.close} */
  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** A {@link Store} on SQLite. */
export class SqliteStore extends SqliteView {
  /** The schema version after the start-up migration. */
  readonly schemaVersion: number;
  private readonly db: Database.Database;
  /** Settles when the open transaction (if any) has ended. */
  private idle: Promise<void> = Promise.resolve();
  private inTransaction = false;

  /**
   * Opens (creating when needed) and migrates the database.
   * @param file - a file path, or `:memory:`.
   * @param options - `synchronous`: `full` (default: each commit fsynced) or `normal` (WAL synced at checkpoints; see `SQLITE_SYNCHRONOUS`)
   */
  constructor(file: string, options: { synchronous?: 'full' | 'normal' } = {}) {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    const db = new Database(file);
    if (file !== ':memory:') db.pragma('journal_mode = WAL');
    db.pragma(options.synchronous === 'normal' ? 'synchronous = NORMAL' : 'synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    const schemaVersion = migrate(db);
    const repos = openRepos(db);
    const self: { store?: SqliteStore } = {};
    super(
      repos,
      (work) => self.store!.runOutside(work),
      (fn) => self.store!.runTransaction(fn),
    );
    self.store = this;
    this.db = db;
    this.schemaVersion = schemaVersion;
  }

  /** {@inheritDoc Store.close} */
  override async close(): Promise<void> {
    await this.idle;
    if (this.db.open) this.db.close();
  }

  private async runOutside<T>(work: () => T): Promise<T> {
    while (this.inTransaction) await this.idle;
    return work();
  }

  private async runTransaction<T>(fn: (tx: Store) => Promise<T>): Promise<T> {
    while (this.inTransaction) await this.idle;
    this.inTransaction = true;
    let release!: () => void;
    this.idle = new Promise((resolve) => (release = resolve));
    const inside: Runner = async (work) => work();
    const tx = new SqliteView(this.repos, inside, () => Promise.reject(new Error('transactions do not nest')));
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const result = await fn(tx);
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw error;
    } finally {
      this.inTransaction = false;
      release();
    }
  }
}
