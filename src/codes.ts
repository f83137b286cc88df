/**
 * `@kefu-im/sdk/codes`: every number the SDK, the reference app and the reference server agree
 * on, in one place: the socket close codes (docs/protocol.md, close codes) and the `code` of the
 * `{ code, message, data }` envelope of every HTTP answer (docs/protocol.md §3). Constants and
 * types only: no code runs at import, and a bundler keeps only what is used.
 * @module
 */

/**
 * The socket close codes, by name, and what the SDK does after each (docs/protocol.md).
 * The standard codes (1000-1013) come from RFC 6455; 4001-4006 are the protocol's own.
 */
export const CloseCode = /* @__PURE__ */ Object.freeze({
  /** 1000 normal closure: the client closed (`disconnect()`, offline, the back/forward cache) or an agent logged out. */
  Normal: 1000,
  /** 1001 going away (the server shut down without draining): reconnect with the usual backoff. */
  GoingAway: 1001,
  /** 1006 abnormal closure (the network, a socket error, a liveness timeout): reconnect with the usual backoff. */
  Abnormal: 1006,
  /** 1009 a frame too large for the server to read (over 64 KiB): reconnect with the usual backoff. */
  FrameTooLarge: 1009,
  /**
   * 1011 the server could not handle a frame (its store failed): reconnect with the usual backoff;
   * the client then catches up and resends what was not acknowledged.
   */
  ServerError: 1011,
  /**
   * 1012 service restart: the server is draining (SIGTERM). The first retry goes at once (a
   * balancer sends it to another node); further ones follow the usual backoff.
   */
  ServiceRestart: 1012,
  /**
   * 1013 try again later: the client sent more frames before its connect was admitted than the
   * server holds for it (docs/protocol.md §3). Reconnect with the usual backoff; on the next
   * welcome the outbox resends what was not acknowledged (the `fp` keeps that exactly once), so
   * nothing is lost.
   */
  TryAgainLater: 1013,
  /**
   * 4001 the connect check failed (crypto, HMAC, expired key session, refused agent credentials):
   * the next attempt exchanges keys again, at once after the first refusal in a row (most often
   * an expired key session), then with the backoff; `maxReconnectAttempts` refusals in a row stop
   * the client.
   */
  Unauthorized: 4001,
  /** 4002 idle: the server heard no frame for 90 s. Reconnect with the usual backoff. */
  Idle: 4002,
  /** 4003 banned: never reconnect by itself (only `connect()` or `reconnect()` try again). */
  Banned: 4003,
  /**
   * 4004 identity refused (protocol §3a): a claimed client id without its secret. The client
   * starts a new identity and connects at once, once; a second 4004 in a row stops it.
   */
  IdentityRefused: 4004,
  /**
   * 4005 too many connections: the identity already has `MAX_SOCKETS_PER_IDENTITY` sockets open.
   * The client stops (halt reason `too-many-connections`, notice `tooManyConnections`) and tries
   * again only when the user comes back to the page or asks (`reconnect()`, `connect()`): a
   * retry on a timer would be refused again, and each costs the server an RSA decrypt.
   */
  TooManyConnections: 4005,
  /**
   * 4006 identity token refused (protocol §3b: a bad, expired or foreign merchant token; the reason
   * is `expired`, `invalid` or `merchant`). The SDK asks `getIdentityToken` once more and connects
   * again at once; a second 4006 in a row stops it (halt reason `identity-token-refused`, event
   * `identity token refused` with `retrying: false`).
   */
  IdentityTokenRefused: 4006,
} as const);

/** A close code the SDK knows by name (a value of {@link CloseCode}). */
export type KnownCloseCode = (typeof CloseCode)[keyof typeof CloseCode];

/**
 * A socket close code: one of {@link KnownCloseCode}, or any other number the server or the
 * browser sends. The `& {}` keeps the known literals visible to editors next to `number`.
 */
// eslint-disable-next-line @typescript-eslint/ban-types
export type CloseCode = KnownCloseCode | (number & {});

/** A close code the server sends on purpose (1011, 1012, 1013 and 4001-4006). */
export type ServerCloseCode = (typeof CloseCode)[
  | 'ServerError'
  | 'ServiceRestart'
  | 'TryAgainLater'
  | 'Unauthorized'
  | 'Idle'
  | 'Banned'
  | 'IdentityRefused'
  | 'TooManyConnections'
  | 'IdentityTokenRefused'];

/**
 * The `code` of the envelope `{ code, message, data }` of every `/im` answer (docs/protocol.md
 * §3), and what the client does about each. Any non-zero code is a failure whose `message` is
 * user-facing: the SDK rejects with an `ApiError` carrying the code and shows the message.
 */
export const ApiErrorCode = /* @__PURE__ */ Object.freeze({
  /** 0 success: `data` is the answer. */
  Ok: 0,
  /** -1 (never on the wire): the answer carried no envelope, or one of the wrong shape. */
  NoEnvelope: -1,
  /** 413 too many requests (the envelope of an HTTP 413 answer): the SDK shows `requestTooFrequent`. */
  TooFrequent: 413,
  /** 1000 an internal fault of the server (HTTP 500; never a stack trace). */
  Internal: 1000,
  /** 1001 bad request: a missing or malformed parameter, or an (enc) payload that does not decrypt. */
  BadRequest: 1001,
  /** 1002 unknown or expired salt key (the key session is gone: start up again). */
  BadSalt: 1002,
  /** 1003 not found. */
  NotFound: 1003,
  /** 2001 blacklisted: the rating function is refused (final: asking again changes nothing). */
  Blacklisted: 2001,
  /** 2002 already rated this conversation (final). */
  AlreadyRated: 2002,
  /** 2003 banned: every call that names the visitor is refused; contact the administrator. */
  Banned: 2003,
  /** 2004 translation is not configured, or it failed. */
  Translate: 2004,
  /** 3001 upload refused (size, type, or an unknown upload). */
  Upload: 3001,
  /** 3002 the identity's daily upload quota is used up: nothing was kept. */
  UploadQuota: 3002,
  /** 4003 forbidden (protocol §3a): the key session is not bound to the visitor the call names. */
  Forbidden: 4003,
} as const);

/** An envelope code the SDK knows by name (a value of {@link ApiErrorCode}). */
export type ApiErrorCode = (typeof ApiErrorCode)[keyof typeof ApiErrorCode];

