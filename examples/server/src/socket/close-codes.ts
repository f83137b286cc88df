/**
 * Every close code the server's socket layer sends, in one place (docs/protocol.md, close codes),
 * under the server's names; the numbers are the shared ones of `@kefu-im/sdk/codes`
 * ({@link CloseCode}), which the SDK reads. The SDK reconnects after all of them but 4003 (banned)
 * and 4005 (too many connections); after 4001 it renews its keys, after 4004 it starts a new
 * identity, after 1012 it retries at once. Its outbox resends, on the next welcome, every message
 * the server did not acknowledge (the `fp` keeps that exactly once).
 * @module
 */

import { CloseCode } from '@kefu-im/sdk/codes';

/** A normal close: the agent logged out (type 312). */
export const LOGGED_OUT_CLOSE = CloseCode.Normal;
/**
 * A frame larger than `MAX_FRAME_BYTES` (sent by the `ws` library itself, through its
 * `maxPayload`).
 */
export const FRAME_TOO_LARGE_CLOSE = CloseCode.FrameTooLarge;
/** The server could not handle a frame (its store failed): the client reconnects and resends. */
export const SERVER_ERROR_CLOSE = CloseCode.ServerError;
/** The server is draining (SIGTERM, `app.close()`): the client reconnects at once, to another node behind a balancer. */
export const SERVICE_RESTART_CLOSE = CloseCode.ServiceRestart;
/**
 * Try again later: the client sent more frames before its connect was admitted than the server
 * holds for it. It reconnects and resends what was not acknowledged; nothing is dropped silently.
 */
export const TRY_AGAIN_LATER_CLOSE = CloseCode.TryAgainLater;
/** A refused connect (protocol §3): crypto, HMAC, key session, agent credentials. */
export const CONNECT_REFUSED = CloseCode.Unauthorized;
/** A connection idle for too long (no frame within `SOCKET_IDLE_MS`). */
export const IDLE_CLOSE = CloseCode.Idle;
/** A banned visitor, after its type-500 refusal: the SDK never reconnects. */
export const BANNED_CLOSE = CloseCode.Banned;
/** A refused identity (protocol §3a): a claimed id without its secret, or a key session bound to another identity. */
export const IDENTITY_REFUSED = CloseCode.IdentityRefused;
/**
 * A refused identity token (protocol §3b): bad, expired or for another merchant; the reason is
 * `invalid`, `expired` or `merchant`. Nothing is bound or stored.
 */
export const IDENTITY_TOKEN_REFUSED_CLOSE = CloseCode.IdentityTokenRefused;
/**
 * A connect refused because its identity already has `MAX_SOCKETS_PER_IDENTITY` sockets open: the
 * newest is refused (never welcomed), the open ones keep working.
 */
export const TOO_MANY_CONNECTIONS_CLOSE = CloseCode.TooManyConnections;
