/**
 * The socket close codes the SDK knows, as a typed union (docs/protocol.md, close codes).
 * @module
 */

/**
 * A close code the SDK acts on or shows:
 * - `1000` normal closure (the client closed: `disconnect()`, offline, page going to the back/forward cache)
 * - `1001` going away (the server shut down)
 * - `1006` abnormal closure (the network, an error, a liveness timeout)
 * - `4001` the connect check failed (the next attempt exchanges keys again)
 * - `4002` idle: the server heard no frame for 90 s
 * - `4003` banned: never reconnect by itself
 * - `4004` refused identity (protocol §3a)
 *
 * Any other number may still arrive: the type is the union plus `number`.
 */
export type KnownCloseCode = 1000 | 1001 | 1006 | 4001 | 4002 | 4003 | 4004;

/** A socket close code: one of {@link KnownCloseCode}, or any other number the server sends. */
// The `& {}` keeps the known literals visible to editors next to `number`.
// eslint-disable-next-line @typescript-eslint/ban-types
export type CloseCode = KnownCloseCode | (number & {});
