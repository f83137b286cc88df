/**
 * What the client does about the server's close codes (the codes themselves are in `codes.ts`):
 * 4001 re-keys, 4003 never reconnects, 4005 stops until the user acts, refusals in a row count
 * as failed attempts.
 * @module
 */
import { CloseCode } from '../codes.js';
import type { ReconnectDelayFn, ReconnectPolicy } from '../options.js';
import type { HaltReason } from './connection-snapshot.js';
import { toDelayFn } from './reconnect-policy.js';

/** What {@link CloseCodeHandler} needs from the client. @internal */
export interface CloseCodeDeps {
  /** Forget the key session so the next attempt runs the key exchange again. */
  forgetKeys(): void;
  /** The server refused the identity (4004): the identity keeper decides what comes next. */
  identityRefused?(reason: string): void;
  /** True once even a fresh identity was refused: reconnecting would loop. */
  identityGivenUp?(): boolean;
  /** The server refused the identity token (4006, protocol §3b); true when a fresh one is asked and tried. */
  identityTokenRefused?(reason: string): boolean;
  /** The identity has too many sockets open (4005): tell the user why the client stopped. */
  tooManyConnections?(): void;
}

/**
 * Why a connection halted, from the close code that ended its last attempt (`undefined`: the
 * attempt failed before any socket closed).
 * @param closeCode - the close code of the last attempt
 * @internal
 */
export function haltReasonOf(closeCode: number | undefined): HaltReason {
  switch (closeCode) {
    case CloseCode.Banned:
      return 'banned';
    case CloseCode.TooManyConnections:
      return 'too-many-connections';
    case CloseCode.IdentityRefused:
      return 'identity-refused';
    case CloseCode.IdentityTokenRefused:
      return 'identity-token-refused';
    case CloseCode.Unauthorized:
      return 'unauthorized';
    default:
      return 'gave-up';
  }
}

/**
 * Whether a close code ends reconnecting for good: only `connect()` or `reconnect()` try again,
 * not the page waking up nor the network coming back (4003 banned).
 * @param code - a close code
 * @internal
 */
export function isTerminalClose(code: number): boolean {
  return code === CloseCode.Banned;
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

  private tokenRetry = false;

  /** The socket closed with `code` (and `reason`). */
  handleClose(code: number, reason = ''): void {
    if (code === CloseCode.IdentityRefused) this.deps.identityRefused?.(reason);
    if (code === CloseCode.IdentityTokenRefused) this.tokenRetry = this.deps.identityTokenRefused?.(reason) ?? false;
    if (code === CloseCode.TooManyConnections) this.deps.tooManyConnections?.();
    if (code !== CloseCode.Unauthorized) return;
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
   * Wraps a reconnect policy: after 4003 (banned) the client never reconnects; after 4005 (too
   * many connections) it stops until the user acts (a timer cannot know when another socket
   * closes, and every refused try costs the server an RSA decrypt); after 1012 (a draining server)
   * the first retry goes at once; after 4004 it connects again at once as a new visitor, unless
   * that new visitor was refused too; after 4006 it connects again at once with a fresh identity
   * token, once, and stops at a second 4006 in a row; after a first 4001 it connects again at once
   * (with a new key session), after more in a row the attempt is at least the number of refusals
   * in a row. A wrong socket key gives up after `maxRefusals` refusals in a row: refusals after
   * fresh key exchanges do not heal by waiting.
   * @param reconnectPolicy - the policy in force
   * @param maxRefusals - refusals in a row after which the client stops (`maxReconnectAttempts`)
   */
  wrap(reconnectPolicy: ReconnectPolicy, maxRefusals = Infinity): ReconnectDelayFn {
    const policy = toDelayFn(reconnectPolicy);
    return (ctx) => {
      const { closeCode } = ctx;
      if (closeCode === CloseCode.Banned || closeCode === CloseCode.TooManyConnections) return null;
      // a draining node: the first retry goes at once (to another node behind the balancer)
      if (closeCode === CloseCode.ServiceRestart && ctx.attempt <= 1) return 0;
      if (closeCode === CloseCode.IdentityRefused) return this.deps.identityGivenUp?.() ? null : 0;
      // a refused identity token: once at once with a fresh token, then shown (never a loop)
      if (closeCode === CloseCode.IdentityTokenRefused) return this.tokenRetry ? 0 : null;
      if (closeCode === CloseCode.Unauthorized) {
        // the first refusal in a row is most often a key session the server no longer knows (the
        // page started long before it connected, or slept past the session's TTL): the keys are
        // renewed, so the next try goes at once; a wrong socket key is refused again and waits
        if (this.refusedInARow === 1) return 0;
        const attempt = Math.max(ctx.attempt, this.refusedInARow);
        return attempt > maxRefusals ? null : policy({ ...ctx, attempt });
      }
      return policy(ctx);
    };
  }
}
