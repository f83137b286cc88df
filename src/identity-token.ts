/**
 * Verified identity on the socket (protocol §3b): the merchant's identity token of the logged-in
 * member, asked of the integrator (`getIdentityToken`) before a connect and again before the
 * token's `exp`, sent as `d.identityToken`; and what happens when the server refuses it (close
 * code 4006): ask once more and connect again at once; a second refusal in a row is shown (the
 * `identity token refused` event with `retrying: false`, halt reason `identity-token-refused`),
 * never retried in a loop.
 *
 * The SDK never verifies the token (the server does, with the merchant's secret): it only reads
 * `exp` from the payload to know when to ask for a fresh one. Loaded with the socket code.
 * @module
 * @internal
 */
import { base64UrlDecode } from './crypto/encoding.js';
import type { IdentityTokenRefusal } from './events.js';
import type { IdentityTokenSource } from './options.js';
import type { TimerHandle, TimerProvider } from './timers.js';

/** Longest token sent (a JWT of a member with a name, an avatar and an e-mail fits easily). */
export const MAX_IDENTITY_TOKEN_LENGTH = 4096;
/** A token is asked again this long before its `exp` at most, ms (less for short-lived tokens: half their life). */
export const IDENTITY_REFRESH_MARGIN = 60_000;

/** What {@link IdentityTokens} needs (narrow on purpose). @internal */
export interface IdentityTokenDeps {
  /** The integrator's token source at construction (`getIdentityToken`); `identify()` and `reset()` change it. */
  source: IdentityTokenSource | undefined;
  /** Timers (fake ones in tests). */
  timers: TimerProvider;
  /** The time against `exp`, ms since the epoch (the server clock). */
  now(): number;
  /** How long the integrator may take to answer, ms (then the attempt fails). */
  timeout: number;
  /** A refusal (4006) was told: `retrying` false when it is the second in a row. */
  onRefused(ctx: { reason: IdentityTokenRefusal; retrying: boolean }): void;
  /** A token source failed while refreshing in the background. */
  reportError(error: Error): void;
}

/**
 * The `exp` claim of a JWT in ms since the epoch, or null when it has none or is not a JWT. Not
 * a verification: the payload is only read.
 * @param token - a compact JWT
 * @internal
 */
export function tokenExpiry(token: string): number | null {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[1] === undefined) return null;
  try {
    const payload: unknown = JSON.parse(base64UrlDecode(parts[1]));
    const exp = typeof payload === 'object' && payload !== null ? (payload as { exp?: unknown }).exp : undefined;
    return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : null;
  } catch {
    return null;
  }
}

/**
 * The refusal reason of a 4006 close (`expired`, `invalid`, `merchant`), else `invalid`.
 * @param reason - the close reason the server gave
 * @internal
 */
export function refusalOf(reason: string): IdentityTokenRefusal {
  return reason === 'expired' || reason === 'merchant' ? reason : 'invalid';
}

/** Keeps the identity token of the member and handles refused tokens. @internal */
export class IdentityTokens {
  private token: string | null = null;
  private expiresAt: number | null = null;
  private refreshTimer: TimerHandle | null = null;
  private asking: Promise<string | null> | null = null;
  private refusedInARow = 0;
  private gaveUp = false;
  /** Bumped by {@link IdentityTokens.forget}: an answer to an older question is dropped. */
  private generation = 0;
  /** The leader tab's token: a follower keeps it for when it leads and its own source gives none. */
  private shared: string | null = null;

  private source: IdentityTokenSource | undefined;

  constructor(private readonly deps: IdentityTokenDeps) {
    this.source = deps.source;
  }

  /** The token source in force, if any. */
  get tokenSource(): IdentityTokenSource | undefined {
    return this.source;
  }

  /**
   * Switches the token source (`identify()`: the member's; `reset()`: none) and forgets the token
   * held: the next connect asks the new source.
   * @param source - the new source, or undefined for an anonymous visitor
   */
  setSource(source: IdentityTokenSource | undefined): void {
    this.source = source;
    this.forget();
  }

  /**
   * The token this tab's connect sends: its source's last answer, or (without one) the token the
   * leader tab shared. A leader shares it with its followers.
   */
  get current(): string | null {
    return this.token ?? this.shared;
  }

  /**
   * Keeps the token the leader tab shared, sent by a connect of this tab when its own source gives
   * none (it followed a log-in made in another tab, or has no source). Null, an empty or oversized
   * token: none.
   * @param token - the leader's token, or null to forget it
   */
  adopt(token: string | null): void {
    this.shared = typeof token === 'string' && token !== '' && token.length <= MAX_IDENTITY_TOKEN_LENGTH ? token : null;
  }

  /** True once a second token in a row was refused (reconnecting would loop). */
  get givenUp(): boolean {
    return this.gaveUp;
  }

  /**
   * The connect data with `identityToken` added when the source gives one (asked now unless a
   * token held is good for longer than the refresh margin); unchanged without a source.
   * @throws Error (rejects) when the source fails or takes longer than `timeout`
   */
  async connectData(data: Record<string, unknown>): Promise<Record<string, unknown>> {
    const { identityToken: _drop, ...rest } = data;
    if (data.role === 'agent') return rest;
    const own = !this.source ? null : this.fresh() ? this.token : await this.ask();
    const token = own ?? this.shared;
    return token === null ? rest : { ...rest, identityToken: token };
  }

  /** A welcome came: the token (if any) was accepted; refusals count afresh. */
  onWelcome(): void {
    this.refusedInARow = 0;
    this.gaveUp = false;
  }

  /**
   * The server refused the token (4006): it is dropped (a shared one too); the first refusal in a
   * row is retried at once with a fresh token, the second gives up.
   * @param reason - the close reason
   * @returns whether to connect again
   */
  onRefused(reason: string): boolean {
    this.drop();
    this.refusedInARow += 1;
    const retrying = this.refusedInARow < 2;
    this.gaveUp = !retrying;
    this.deps.onRefused({ reason: refusalOf(reason), retrying });
    return retrying;
  }

  /** Forgets the token held and the one shared (identify, reset): the next connect asks the source in force. */
  forget(): void {
    this.drop();
    this.refusedInARow = 0;
    this.gaveUp = false;
  }

  /** Stops the refresh timer. */
  destroy(): void {
    this.drop();
  }

  private drop(): void {
    this.generation += 1;
    this.token = null;
    this.shared = null;
    this.expiresAt = null;
    this.asking = null;
    this.clearTimer();
  }

  private fresh(): boolean {
    if (this.token === null) return false;
    return this.expiresAt === null ? false : this.deps.now() < this.expiresAt - this.margin(this.expiresAt);
  }

  private margin(expiresAt: number): number {
    return Math.min(IDENTITY_REFRESH_MARGIN, Math.max(0, (expiresAt - this.deps.now()) / 2));
  }

  /** Asks the source (one question at a time), keeps the answer and schedules its refresh. */
  private ask(): Promise<string | null> {
    if (this.asking) return this.asking;
    const generation = this.generation;
    const asked = this.question().then((token) => {
      if (generation !== this.generation) return token;
      this.asking = null;
      this.keep(token);
      return token;
    });
    asked.catch(() => {
      if (generation === this.generation) this.asking = null;
    });
    this.asking = asked;
    return asked;
  }

  private question(): Promise<string | null> {
    const { source } = this;
    if (!source) return Promise.resolve(null);
    const { timers, timeout } = this.deps;
    return new Promise<string | null>((resolve, reject) => {
      const timer = timers.setTimeout(() => reject(new Error(`getIdentityToken did not answer within ${timeout} ms.`)), timeout);
      Promise.resolve()
        .then(source)
        .then(
          (token) => {
            timers.clearTimeout(timer);
            if (token === null || token === undefined || token === '') return resolve(null);
            if (typeof token !== 'string' || token.length > MAX_IDENTITY_TOKEN_LENGTH) {
              return reject(new TypeError(`getIdentityToken must resolve to a JWT string of at most ${MAX_IDENTITY_TOKEN_LENGTH} characters, or null.`));
            }
            resolve(token);
          },
          (error: unknown) => {
            timers.clearTimeout(timer);
            reject(error instanceof Error ? error : new Error(String(error)));
          },
        );
    });
  }

  private keep(token: string | null): void {
    this.clearTimer();
    this.token = token;
    this.expiresAt = token === null ? null : tokenExpiry(token);
    if (this.expiresAt === null) return;
    const due = this.expiresAt - this.margin(this.expiresAt) - this.deps.now();
    if (due <= 0) return; // already (nearly) expired: the next connect asks again, no timer loop
    // asked again before exp, so that a reconnect never waits for (or sends) an expired token
    this.refreshTimer = this.deps.timers.setTimeout(
      () => {
        this.refreshTimer = null;
        this.token = null;
        this.ask().catch((e: unknown) => this.deps.reportError(e instanceof Error ? e : new Error(String(e))));
      },
      due,
    );
  }

  private clearTimer(): void {
    if (this.refreshTimer !== null) this.deps.timers.clearTimeout(this.refreshTimer);
    this.refreshTimer = null;
  }
}
