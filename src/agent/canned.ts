/**
 * The desk's canned replies: a merchant's ready answers as a store, the calls that change them
 * (add, update, remove, with the server's rules checked first by {@link cannedReplyProblem}), and
 * {@link DeskCanned.suggest} for the composer's `/shortcut` list.
 * @module
 */
import type { CannedReply, CannedReplyInput, CannedReplyUpdate } from '../http/desk-types.js';
import { createStore, type Store } from '../state/store.js';
import type { DeskCallsHolder } from './desk-client.js';

/** The canned replies of the merchants loaded so far. */
export interface DeskCannedSnapshot {
  /** Replies per merchant id, by shortcut (a merchant is absent until loaded). */
  readonly byMerchant: Readonly<Record<string, readonly CannedReply[]>>;
  /** The last failure's message, or null. */
  readonly error: string | null;
}

/** The most suggestions {@link DeskCanned.suggest} answers. */
export const MAX_SUGGESTIONS = 8;
/** The longest title of a canned reply (characters, after trimming). */
export const MAX_CANNED_TITLE = 100;
/** The longest text of a canned reply (characters, after trimming). */
export const MAX_CANNED_TEXT = 2000;
/** A shortcut: 1-32 letters, digits, `-` or `_` (after dropping a leading `/`). */
export const CANNED_SHORTCUT = /^[\p{L}\p{N}_-]{1,32}$/u;

/**
 * What is wrong with a canned reply (the server's rules, so that a desk can say it in the agent's
 * language before asking): a blank or too long `title` or `text`, a malformed `shortcut`, or a
 * shortcut another reply of the merchant has (`shortcutTaken`).
 */
export type CannedProblem = 'title' | 'text' | 'shortcut' | 'shortcutTaken';

/**
 * The first problem of a reply to add or update, or null when the server should take it.
 * @param input - the reply (title, text and shortcut as the agent typed them)
 * @param existing - the merchant's replies as loaded
 * @param id - the reply being edited (its own shortcut is not taken)
 */
export function cannedReplyProblem(input: Pick<CannedReplyInput, 'title' | 'text' | 'shortcut'>, existing: readonly CannedReply[] = [], id?: string): CannedProblem | null {
  const title = input.title.trim();
  const text = input.text.trim();
  const shortcut = input.shortcut.trim().replace(/^\//, '');
  if (title === '' || title.length > MAX_CANNED_TITLE) return 'title';
  if (text === '' || text.length > MAX_CANNED_TEXT) return 'text';
  if (!CANNED_SHORTCUT.test(shortcut)) return 'shortcut';
  if (existing.some((r) => r.shortcut === shortcut && r.id !== id)) return 'shortcutTaken';
  return null;
}

const bySortedShortcut = (a: CannedReply, b: CannedReply): number => (a.shortcut < b.shortcut ? -1 : a.shortcut > b.shortcut ? 1 : 0);

/** Canned replies: list, add, update, remove, suggest. */
export class DeskCanned {
  /** The replies loaded so far, for `useSyncExternalStore`. */
  readonly store: Store<DeskCannedSnapshot> = createStore<DeskCannedSnapshot>({ byMerchant: {}, error: null });

  /**
   * @param client - the desk's calls (`{ api: new DeskApi(client.api) }`)
   * @internal the desk composes it
   */
  constructor(private readonly client: DeskCallsHolder) {}

  /** The loaded replies of `mchId` (empty until {@link DeskCanned.load}). */
  replies(mchId: string): readonly CannedReply[] {
    return this.store.getState().byMerchant[mchId] ?? [];
  }

  /** Loads (again) the replies of `mchId` into the store. */
  async load(mchId: string): Promise<readonly CannedReply[]> {
    const list = await this.track(this.client.api.agentCannedList({ mchId }));
    this.put(mchId, [...list].sort(bySortedShortcut));
    return this.replies(mchId);
  }

  /** Adds a reply (rejects with the server's message, e.g. a taken shortcut). */
  async add(input: CannedReplyInput): Promise<CannedReply> {
    const reply = await this.track(this.client.api.agentCannedAdd(input));
    this.put(reply.mchId, [...this.replies(reply.mchId).filter((r) => r.id !== reply.id), reply].sort(bySortedShortcut));
    return reply;
  }

  /** Replaces a reply's title, text and shortcut (rejects with the server's message, e.g. a taken shortcut). */
  async update(input: CannedReplyUpdate): Promise<CannedReply> {
    const reply = await this.track(this.client.api.agentCannedUpdate(input));
    this.put(reply.mchId, [...this.replies(reply.mchId).filter((r) => r.id !== reply.id), reply].sort(bySortedShortcut));
    return reply;
  }

  /**
   * The first problem of a reply to add or update against the loaded replies of its merchant
   * ({@link cannedReplyProblem}), or null.
   * @param id - the reply being edited, if any
   */
  problem(input: CannedReplyInput, id?: string): CannedProblem | null {
    return cannedReplyProblem(input, this.replies(input.mchId), id);
  }

  /** Removes a reply. */
  async remove(mchId: string, id: string): Promise<void> {
    await this.track(this.client.api.agentCannedRemove({ mchId, id }));
    this.put(mchId, this.replies(mchId).filter((r) => r.id !== id));
  }

  /**
   * The loaded replies of `mchId` for what the agent typed after `/` (with or without the `/`):
   * shortcuts that start with it first, then shortcuts and titles that contain it, ignoring case;
   * at most {@link MAX_SUGGESTIONS}.
   */
  suggest(mchId: string, prefix: string): CannedReply[] {
    const wanted = prefix.replace(/^\//, '').trim().toLowerCase();
    const all = this.replies(mchId);
    const starts = all.filter((r) => r.shortcut.toLowerCase().startsWith(wanted));
    const contains = all.filter((r) => !starts.includes(r) && (r.shortcut.toLowerCase().includes(wanted) || r.title.toLowerCase().includes(wanted)));
    return [...starts, ...contains].slice(0, MAX_SUGGESTIONS);
  }

  private put(mchId: string, list: readonly CannedReply[]): void {
    this.store.setState((s) => ({ byMerchant: { ...s.byMerchant, [mchId]: list }, error: null }));
  }

  private async track<T>(call: Promise<T>): Promise<T> {
    try {
      return await call;
    } catch (error) {
      this.store.setState({ error: error instanceof Error ? error.message : String(error) });
      throw error;
    }
  }
}
