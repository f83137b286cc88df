/**
 * The embedded default {@link Store}: SQLite through better-sqlite3, a file `DATA_DIR/kefu.db`
 * (WAL mode) or `:memory:` for tests. The schema is migrated at open.
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
import type { ChatRepo, DirectoryRepo, IdentityRepo, KeySessionRepo, RecordRepo, Store } from './types.js';

/** A {@link Store} on SQLite. */
export class SqliteStore implements Store {
  readonly identity: IdentityRepo;
  readonly keys: KeySessionRepo;
  readonly directory: DirectoryRepo;
  readonly chat: ChatRepo;
  readonly records: RecordRepo;
  /** The schema version after the start-up migration. */
  readonly schemaVersion: number;
  private readonly db: Database.Database;
  private readonly getMeta: Database.Statement<[string], { value: string }>;
  private readonly putMeta: Database.Statement<[string, string]>;

  /**
   * Opens (creating when needed) and migrates the database.
   * @param file - a file path, or `:memory:`.
   */
  constructor(file: string) {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    this.db = new Database(file);
    if (file !== ':memory:') this.db.pragma('journal_mode = WAL');
    this.db.pragma('foreign_keys = ON');
    this.db.pragma('busy_timeout = 5000');
    this.schemaVersion = migrate(this.db);
    this.keys = sqliteKeySessionRepo(this.db);
    this.directory = sqliteDirectoryRepo(this.db);
    this.chat = sqliteChatRepo(this.db);
    this.records = sqliteRecordRepo(this.db);
    this.identity = sqliteIdentityRepo(this.db);
    this.getMeta = this.db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?');
    this.putMeta = this.db.prepare<[string, string]>(
      'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    );
  }

  /** {@inheritDoc Store.meta} */
  meta(key: string): string | undefined {
    return this.getMeta.get(key)?.value;
  }

  /** {@inheritDoc Store.setMeta} */
  setMeta(key: string, value: string): void {
    this.putMeta.run(key, value);
  }

  /** {@inheritDoc Store.transaction} */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  /** {@inheritDoc Store.close} */
  close(): void {
    if (this.db.open) this.db.close();
  }
}
