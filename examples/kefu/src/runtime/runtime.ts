/**
 * The app runtime: the server configuration, the app-level interface texts, and the chat clients.
 * One visitor client per conversation (a service chat or a group), created on first use, kept
 * while a page shows it and destroyed shortly after the last page lets go of it.
 * @module
 */
import { DefaultReconnectPolicy, I18n, ImClient, type ImClientOptions, type Language, type Notice, type PublicConfig, type ReconnectContext, type ReconnectDelayFn } from '@kefu-im/sdk';
import { CloseCode } from '@kefu-im/sdk/codes';
import { appTexts, type AppTextCatalogue } from '../env/app-texts.js';
import { tellServerLanguage } from './visitor-language.js';

/**
 * The reconnect policy: the SDK's default (the spec's 5 s delay for 10 attempts, then a slow phase
 * that never ends by itself), but never after a fatal close, which is reported through `onFatal`:
 * `banned` for everyone; `unauthorized` only for an agent (wrong credentials). A visitor's 4001 is
 * an expired key session: the SDK exchanges keys again and retries (it stops by itself after
 * `maxReconnectAttempts` refusals in a row), so the page is never stranded on /401 by it.
 * @param delay - delay of each first-phase attempt, ms
 * @param max - first-phase attempts
 * @param onFatal - told the close code that stopped reconnecting
 * @param fatalCodes - the close codes that stop reconnecting (default: banned only)
 * @param refusals - decides first: a delay, `null` (fatal) or `undefined` (no say)
 */
export function appReconnectPolicy(
  delay: number,
  max: number,
  onFatal: (code: number) => void,
  fatalCodes: readonly number[] = [CloseCode.Banned],
  refusals?: (ctx: ReconnectContext) => number | null | undefined,
): ReconnectDelayFn {
  const slow = new DefaultReconnectPolicy({ firstPhaseDelay: delay, firstPhaseAttempts: max });
  return (ctx) => {
    const { closeCode } = ctx;
    const special = refusals?.(ctx);
    if (special === null || (closeCode !== undefined && fatalCodes.includes(closeCode))) {
      onFatal(closeCode ?? CloseCode.Unauthorized);
      return null;
    }
    return special ?? slow.nextRetryDelayInMs(ctx);
  };
}

/** Listener of fatal closes. */
export type FatalListener = (client: ImClient, code: number) => void;

/** How long a released client lives on (so that a remount takes it back), ms. */
const RELEASE_DELAY = 1_000;

interface Entry {
  client: ImClient;
  users: number;
  timer: ReturnType<typeof setTimeout> | null;
}

/** The runtime shared by the whole app. */
export class AppRuntime {
  /** The server's public configuration. */
  readonly config: PublicConfig;
  /** App-level texts (titles and pages shown outside a conversation). */
  readonly i18n: I18n;
  private readonly texts: AppTextCatalogue;
  private readonly entries = new Map<string, Entry>();
  private readonly fatalListeners = new Set<FatalListener>();
  /** The close code that ended each conversation client, told to listeners that come later. */
  private readonly endedBy = new Map<ImClient, number>();
  /** Per client whose notices are held: stops holding them and returns them. */
  private readonly noticeHolds = new Map<ImClient, () => Notice[]>();
  /** Options of every conversation client besides the server's (`identity-bridge.ts` adds `getIdentityToken`). */
  visitorOptions: Partial<ImClientOptions> = {};

  /**
   * @param config - the server's public configuration
   * @param language - the initial interface language (its texts are loaded by {@link AppRuntime.setLanguage})
   * @param texts - the app's own texts (the page's catalogue by default; injected in tests)
   */
  constructor(config: PublicConfig, language?: string, texts: AppTextCatalogue = appTexts) {
    this.config = config;
    this.i18n = new I18n(language);
    this.texts = texts;
  }

  /**
   * Switches the interface language of the app and, when given, of a chat client (and tells the
   * server a visitor's, see `visitor-language.ts`). The app's own
   * texts of the language are loaded first, so that no view renders the new language with zh
   * labels; when they cannot be fetched the language is switched all the same and its app
   * labels stay zh (reported by the catalogue), rather than the page waiting or going blank.
   * @param language - a language code (unknown codes give zh)
   * @param client - a conversation's client to switch too
   * @returns the app's language now
   * @throws Error (rejects) when the SDK texts cannot be loaded (a language whose SDK texts failed stays as it was)
   */
  async setLanguage(language: string, client?: ImClient): Promise<Language> {
    await this.texts.load(language);
    const [current, spoken] = await Promise.all([this.i18n.setLanguage(language), client?.setLanguage(language)]);
    // the server's own texts follow a visitor's language too (the next connect, and now)
    if (client && spoken) tellServerLanguage(client, spoken);
    return current;
  }

  /**
   * Listens for a client whose connection was closed for good (unauthorised or banned).
   * @returns a remover
   */
  onFatal(listener: FatalListener): () => void {
    this.fatalListeners.add(listener);
    // a conversation client may end before the page that listens is mounted (a first visit
    // mounts after its connect): that page is told at once
    for (const [client, code] of this.endedBy) if (this.owns(client)) listener(client, code);
    return () => this.fatalListeners.delete(listener);
  }

  /**
   * Holds the notices (toasts) `client` tells while no screen shows them: a first visit keeps its
   * boot screen until the first history page is in. The chat takes them once mounted
   * ({@link AppRuntime.takeHeldNotices}).
   */
  holdNotices(client: ImClient): void {
    if (this.noticeHolds.has(client)) return;
    const held: Notice[] = [];
    const hold = (notice: Notice): void => void held.push(notice);
    client.on('notice', hold);
    this.noticeHolds.set(client, () => {
      client.off('notice', hold);
      this.noticeHolds.delete(client);
      return held;
    });
  }

  /** The notices held for `client`, in order (none when none were held); they are held no longer. */
  takeHeldNotices(client: ImClient): Notice[] {
    return this.noticeHolds.get(client)?.() ?? [];
  }

  /**
   * The visitor client of a conversation (created on first use).
   * @param key - the conversation key (e.g. `kefu:<entry>` or `group:<id>`)
   */
  acquire(key: string): ImClient {
    const existing = this.entries.get(key);
    if (existing) return existing.client;
    const client = this.create(this.visitorOptions);
    this.entries.set(key, { client, users: 0, timer: null });
    return client;
  }

  /** The conversation clients alive now (the identity bridge switches them on log-in and log-out). */
  visitorClients(): ImClient[] {
    return [...this.entries.values()].map((entry) => entry.client);
  }

  /**
   * Creates a client of this server in the current language, with the app's reconnect policy.
   * @param extra - options that differ (connect data, storage)
   * @param fatalCodes - close codes that end the client (default: banned)
   * @param refusals - a say on each retry before the policy (an agent's: `agentRefusals`)
   */
  create(extra: Partial<ImClientOptions> = {}, fatalCodes: readonly number[] = [CloseCode.Banned], refusals?: (ctx: ReconnectContext) => number | null | undefined): ImClient {
    const { baseUrl, socketUrl, socketKey } = this.config;
    let created: ImClient | null = null;
    const reconnectPolicy = appReconnectPolicy(
      5_000,
      10,
      (code) => {
        if (!created) return;
        if (this.owns(created)) this.endedBy.set(created, code);
        for (const listener of [...this.fatalListeners]) listener(created, code);
      },
      fatalCodes,
      refusals,
    );
    created = new ImClient({ baseUrl, socketUrl, socketKey, language: this.i18n.language, reconnectPolicy, ...extra });
    return created;
  }

  /** Whether `client` is one of the conversation clients (not an agent's). */
  owns(client: ImClient): boolean {
    for (const entry of this.entries.values()) if (entry.client === client) return true;
    return false;
  }

  /** A page shows the client of `key`: keep it. */
  retain(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    entry.users += 1;
    if (entry.timer !== null) clearTimeout(entry.timer);
    entry.timer = null;
  }

  /** A page no longer shows the client of `key`: destroy it soon unless it is taken back. */
  release(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    entry.users = Math.max(0, entry.users - 1);
    if (entry.users > 0 || entry.timer !== null) return;
    entry.timer = setTimeout(() => {
      entry.timer = null;
      if (entry.users > 0) return;
      this.entries.delete(key);
      this.endedBy.delete(entry.client);
      this.takeHeldNotices(entry.client);
      entry.client.destroy();
    }, RELEASE_DELAY);
  }
}
