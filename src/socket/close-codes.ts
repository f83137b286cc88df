/**
 * The server's close codes (docs/protocol.md, close codes) and what the client does about them:
 * 4001 re-keys, 4003 never reconnects, refusals in a row count as failed attempts.
 * @module
 */
import type { ReconnectDelayFn, ReconnectPolicy } from '../options.js';
import { toDelayFn } from './reconnect-policy.js';

/** Close code of a refused connect check (protocol §3): the key session most likely expired. */
export const CLOSE_UNAUTHORIZED = 4001;
/** Close code of a banned visitor: never reconnect (docs/protocol.md). */
export const CLOSE_BANNED = 4003;
/** Close code of a refused identity (protocol §3a): start a new identity, never retry the refused one. */
export const CLOSE_IDENTITY_REFUSED = 4004;
/** Close code of a draining server (SIGTERM): reconnect at once, a balancer routes to another node. */
export const CLOSE_SERVICE_RESTART = 1012;

/** What {@link CloseCodeHandler} needs from the client. @internal */
export interface CloseCodeDeps {
  /** Forget the key session so the next attempt runs the key exchange again. */
  forgetKeys(): void;
  /** The server refused the identity (4004): the identity keeper decides what comes next. */
  identityRefused?(): void;
  /** True once even a fresh identity was refused: reconnecting would loop. */
  identityGivenUp?(): boolean;
}

/**
 * Follows the socket's closes and welcomes and applies the close codes to a reconnect policy.
 * A refused connect (4001) opens the socket before the server closes it, and every open resets
 * the transport's attempt counter; so after 4001 the policy is given the number of refusals in a
 * row instead, and a wrong socket key gives up after `maxReconnectAttempts` like any failed attempt.
 * @internal
 */
export class CloseCodeHandler {
  private refusedInARow = 0;

  /** @param deps - what to do on a refusal */
  constructor(private readonly deps: CloseCodeDeps) {}

  /** The socket closed with `code`. */
  handleClose(code: number): void {
    if (code === CLOSE_IDENTITY_REFUSED) this.deps.identityRefused?.();
    if (code !== CLOSE_UNAUTHORIZED) return;
    this.deps.forgetKeys();
    this.refusedInARow++;
  }

  /** The connect check passed (welcome), a manual connect, or the network came back: start counting again. */
  reset(): void {
    this.refusedInARow = 0;
  }

  /** Connects refused with 4001 since the last reset. */
  get refusals(): number {
    return this.refusedInARow;
  }

  /**
   * Wraps a reconnect policy: after 4003 (banned) the client never reconnects; after 1012 (a
   * draining server) the first retry goes at once; after 4004 it
   * connects again at once as a new visitor, unless that new visitor was refused too; after 4001
   * the attempt is at least the number of refusals in a row.
   * A wrong socket key gives up after `maxRefusals` refusals in a row: refusals after fresh key
   * exchanges do not heal by waiting.
   * @param reconnectPolicy - the policy in force
   * @param maxRefusals - refusals in a row after which the client stops (`maxReconnectAttempts`)
   */
  wrap(reconnectPolicy: ReconnectPolicy, maxRefusals = Infinity): ReconnectDelayFn {
    const policy = toDelayFn(reconnectPolicy);
    return (ctx) => {
      if (ctx.closeCode === CLOSE_BANNED) return null;
      // a draining node: the first retry goes at once (to another node behind the balancer)
      if (ctx.closeCode === CLOSE_SERVICE_RESTART && ctx.attempt <= 1) return 0;
      if (ctx.closeCode === CLOSE_IDENTITY_REFUSED) return this.deps.identityGivenUp?.() ? null : 0;
      if (ctx.closeCode === CLOSE_UNAUTHORIZED) {
        const attempt = Math.max(ctx.attempt, this.refusedInARow);
        return attempt > maxRefusals ? null : policy({ ...ctx, attempt });
      }
      return policy(ctx);
    };
  }
}
