/**
 * Where the outbox keeps pending messages across reloads: IndexedDB through `idb` (loaded with a
 * dynamic import, so it stays out of the initial bundle) or memory (Node, SSR, no IndexedDB).
 * @module
 */
import { lazy } from '../lazy.js';
import type { ChatMessage } from '../messages/types.js';

/** A picked file whose upload has not finished, kept so the upload can restart after a reload. */
export interface PendingFile {
  /** The file's bytes; absent when the file was over the outbox's cap (not kept across a reload). */
  blob?: Blob;
  /** The file name. */
  name: string;
  /** The file size, bytes. */
  size: number;
  /** The MIME type. */
  mime: string;
  /** The message type it becomes once uploaded. */
  kind: 'image' | 'file' | 'video';
}

/** One pending message as kept in an {@link OutboxStorage}. */
export interface OutboxRecord {
  /** The message's fingerprint (the key, with the scope). */
  fp: string;
  /** Composition order: increasing in the order the visitor composed the messages. */
  seq: number;
  /** The message as composed (the wire fields; for a file not yet uploaded, a placeholder). */
  message: ChatMessage;
  /** A file not yet uploaded. */
  file?: PendingFile;
}

/**
 * A store of pending messages, partitioned by scope (one visitor of one merchant and platform),
 * so another visitor on the same browser never sends someone else's text.
 */
export interface OutboxStorage {
  /** The records of a scope, in any order. */
  load(scope: string): Promise<OutboxRecord[]>;
  /** Adds or replaces a record. */
  put(scope: string, record: OutboxRecord): Promise<void>;
  /** Removes a record (no error when it is absent). */
  remove(scope: string, fp: string): Promise<void>;
}

/** An {@link OutboxStorage} in memory: the fallback without IndexedDB; share one to survive a client. */
export function memoryOutboxStorage(): OutboxStorage {
  const scopes = new Map<string, Map<string, OutboxRecord>>();
  const scopeOf = (scope: string): Map<string, OutboxRecord> => {
    let records = scopes.get(scope);
    if (!records) scopes.set(scope, (records = new Map()));
    return records;
  };
  return {
    load: async (scope) => [...(scopes.get(scope)?.values() ?? [])],
    put: async (scope, record) => {
      scopeOf(scope).set(record.fp, record);
    },
    remove: async (scope, fp) => {
      scopes.get(scope)?.delete(fp);
    },
  };
}

/** The IndexedDB database and object store of {@link indexedDbOutboxStorage}. */
export const OUTBOX_DB: Readonly<{
  /** The database name. */
  name: string;
  /** The object store of pending messages, keyed by `[scope, fp]`, indexed by `scope`. */
  store: 'pending';
  /** The schema version. */
  version: number;
}> = Object.freeze({ name: 'kefu-im-outbox', store: 'pending', version: 1 });

interface StoredRow extends OutboxRecord {
  scope: string;
}

/**
 * An {@link OutboxStorage} in IndexedDB (`globalThis.indexedDB`), opened at the first use with
 * `idb`, loaded on demand (a failed load or open is tried again at the next use). Rows are keyed by `[scope, fp]`.
 * @param name - the database name (default `kefu-im-outbox`)
 */
export function indexedDbOutboxStorage(name: string = OUTBOX_DB.name): OutboxStorage {
  const db = lazy(() =>
    import('idb').then(({ openDB }) =>
      openDB(name, OUTBOX_DB.version, {
        upgrade(database) {
          const store = database.createObjectStore(OUTBOX_DB.store, { keyPath: ['scope', 'fp'] });
          store.createIndex('scope', 'scope');
        },
      }),
    ),
  );
  return {
    load: async (scope) => {
      const rows = (await (await db()).getAllFromIndex(OUTBOX_DB.store, 'scope', scope)) as StoredRow[];
      return rows.map(({ scope: _scope, ...record }) => record);
    },
    put: async (scope, record) => {
      await (await db()).put(OUTBOX_DB.store, { ...record, scope } satisfies StoredRow);
    },
    remove: async (scope, fp) => {
      await (await db()).delete(OUTBOX_DB.store, [scope, fp]);
    },
  };
}

/**
 * The outbox storage a client uses: `injected` when given, else IndexedDB when the platform has
 * it, else memory (lost with the client).
 */
export function resolveOutboxStorage(injected?: OutboxStorage | null): OutboxStorage {
  if (injected) return injected;
  const hasIndexedDb = typeof (globalThis as { indexedDB?: unknown }).indexedDB === 'object' && (globalThis as { indexedDB?: unknown }).indexedDB !== null;
  return hasIndexedDb ? indexedDbOutboxStorage() : memoryOutboxStorage();
}
