/**
 * The welcome that binds a key session to this visitor (protocol §3a): until it comes, the key
 * session speaks for nobody, so the visitor's own calls (history, uploads) wait for it.
 * @module
 * @internal
 */

/** What the gate reads from its client, at the moment of each call. @internal */
export interface WelcomeGateDeps {
  /** The current key session's salt key (undefined before the key exchange). */
  saltKey(): string | undefined;
  /** Calls need not wait at all: an agent, or a follower tab using the leader's bound key session. */
  exempt(): boolean;
  /** A welcome may still come: a connect is wanted, the connection has not halted, the client lives. */
  expecting(): boolean;
}

/**
 * Holds the visitor's calls until a welcome bound the current key session.
 * @internal
 */
export class WelcomeGate {
  /** The salt key of the last welcome: that key session is bound to this visitor. */
  private boundSalt: string | undefined;
  private readonly waiters: (() => void)[] = [];

  /** @param deps - the client's state, read at each call */
  constructor(private readonly deps: WelcomeGateDeps) {}

  /** Whether a welcome bound the current key session. */
  get bound(): boolean {
    const salt = this.deps.saltKey();
    return salt !== undefined && salt === this.boundSalt;
  }

  /** A welcome came: the current key session is bound (the waiting calls go with {@link release}). */
  bind(): void {
    this.boundSalt = this.deps.saltKey();
  }

  /** Resolves once a welcome has bound the current key session (at once if one has). */
  welcomed(): Promise<void> {
    return this.bound ? Promise.resolve() : new Promise((resolve) => this.waiters.push(resolve));
  }

  /**
   * Resolves when a visitor call may go: at once when exempt, when the key session is bound, or
   * when no welcome is coming (the call then fails on its own); else at the next welcome or
   * {@link release}. A connect made in the same turn counts (React runs a child's effects, which
   * may load history, before its provider's, which connects).
   */
  async callsReady(): Promise<void> {
    await Promise.resolve();
    if (this.deps.exempt() || this.bound || !this.deps.expecting()) return;
    await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  /** Lets every waiting call go (a welcome came, or none is coming). */
  release(): void {
    for (const resolve of this.waiters.splice(0)) resolve();
  }
}
