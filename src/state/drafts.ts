/**
 * Drafts of the composer, per conversation, kept in the client's storage so they survive a
 * reload: `client.drafts.get(key)`, `client.drafts.set(key, text)`.
 * @module
 */
import type { StorageLike } from '../options.js';

/** Storage key prefix of the drafts; the visitor's scope follows it. */
export const DRAFTS_KEY_PREFIX = 'kefu-im:drafts:';
/** Longest draft kept, characters (longer ones are cut). */
export const MAX_DRAFT_LENGTH = 20_000;
/** Most conversations with a draft kept (the oldest are dropped first). */
export const MAX_DRAFTS = 50;

/** The drafts of one visitor: conversation key -> text. */
export type DraftsSnapshot = Readonly<Record<string, string>>;

/**
 * The composer drafts of the current visitor (scoped by client id, merchant and platform, so
 * another visitor on the same browser never sees them). Writes go to storage at once and never
 * throw (a full or missing storage keeps the draft in memory). `subscribe`/`getSnapshot` serve
 * `useSyncExternalStore`.
 */
export class Drafts {
  private cache: { scope: string; drafts: DraftsSnapshot } | null = null;
  private readonly listeners = new Set<() => void>();

  /**
   * @param storage - where drafts are kept (the client's storage)
   * @param scope - the current visitor's scope
   * @internal
   */
  constructor(
    private readonly storage: StorageLike,
    private readonly scope: () => string,
  ) {}

  /** The draft of a conversation, or `''`. */
  get(key: string): string {
    return this.getSnapshot()[key] ?? '';
  }

  /**
   * Sets (or, with blank text, removes) the draft of a conversation.
   * @param key - the conversation (e.g. `service`, or a group id)
   * @param text - the composer's text
   */
  set(key: string, text: string): void {
    if (typeof key !== 'string' || key === '') throw new TypeError('Drafts.set: the key must be a non-empty string');
    const value = typeof text === 'string' ? text.slice(0, MAX_DRAFT_LENGTH) : '';
    const current = this.getSnapshot();
    if ((current[key] ?? '') === value) return;
    const { [key]: _old, ...rest } = current;
    const entries = Object.entries(value.trim() === '' ? rest : { ...rest, [key]: value });
    const drafts: DraftsSnapshot = Object.freeze(Object.fromEntries(entries.slice(-MAX_DRAFTS)));
    const scope = this.scope();
    this.cache = { scope, drafts };
    try {
      if (entries.length === 0) this.storage.removeItem(DRAFTS_KEY_PREFIX + scope);
      else this.storage.setItem(DRAFTS_KEY_PREFIX + scope, JSON.stringify(drafts));
    } catch {
      // full or unavailable storage: the draft lives on in memory
    }
    for (const listener of [...this.listeners]) listener();
  }

  /** Calls `listener` after every change; returns the unsubscribe function. */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /** Every draft of the current visitor; the identity changes only when a draft changed. */
  readonly getSnapshot = (): DraftsSnapshot => {
    const scope = this.scope();
    if (this.cache?.scope !== scope) this.cache = { scope, drafts: this.read(scope) };
    return this.cache.drafts;
  };

  private read(scope: string): DraftsSnapshot {
    try {
      const raw = this.storage.getItem(DRAFTS_KEY_PREFIX + scope);
      const parsed: unknown = raw ? JSON.parse(raw) : {};
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return Object.freeze({});
      const valid = Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string');
      return Object.freeze(Object.fromEntries(valid.map(([k, v]) => [k, v.slice(0, MAX_DRAFT_LENGTH)])));
    } catch {
      return Object.freeze({});
    }
  }
}
