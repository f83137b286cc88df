/**
 * The socket close codes the SDK knows, as a typed union (docs/protocol.md, close codes).
 * @module
 */

/**
 * A close code the SDK acts on or shows:
 * - `1000` normal closure (the client closed: `disconnect()`, offline, page going to the back/forward cache)
 * - `1001` going away (the server shut down)
 * - `1006` abnormal closure (the network, an error, a liveness timeout)
 * - `1012` service restart (the server is draining: reconnect at once, a balancer sends it elsewhere)
 * - `4001` the connect check failed (the next attempt exchanges keys again)
 * - `4002` idle: the server heard no frame for 90 s
 * - `4003` banned: never reconnect by itself
 * - `4004` refused identity (protocol §3a)
 *
 * Any other number may still arrive: the type is the union plus `number`.
 */
export type KnownCloseCode = 1000 | 1001 | 1006 | 1012 | 4001 | 4002 | 4003 | 4004;

/** A socket close code: one of {@link KnownCloseCode}, or any other number the server sends. */
// The `& {}` keeps the known literals visible to editors next to `number`.
// eslint-disable-next-line @typescript-eslint/ban-types
export type CloseCode = KnownCloseCode | (number & {});

/** The close codes the server sends on purpose, by name (docs/protocol.md). */
export const CloseCode = Object.freeze({
  /** The server is restarting or draining (SIGTERM): reconnect at once, without waiting. */
  ServiceRestart: 1012,
  /** The connect check failed (crypto, HMAC, key session, agent credentials): renew the keys and retry. */
  Unauthorized: 4001,
  /** Idle for too long: reconnect. */
  Idle: 4002,
  /** Banned: never reconnect. */
  Banned: 4003,
  /** Identity refused (protocol §3a): a claimed client id without its secret; start a new identity. */
  IdentityRefused: 4004,
} as const);

/** A close code the server sends on purpose. */
export type ServerCloseCode = (typeof CloseCode)[keyof typeof CloseCode];
