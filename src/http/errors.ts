/**
 * Errors of the HTTP layer.
 * @module
 */
import type { ApiErrorCode } from '../codes.js';

/** Constructor input of {@link ApiError}. */
export interface ApiErrorInit {
  /** The envelope's `code`, or -1 (`ApiErrorCode.NoEnvelope`) when the answer carried no envelope. */
  code: ApiErrorCode | (number & {}); // `& {}` keeps the known codes visible next to `number`
  /** The server's `message`, or a description of the failure. */
  message: string;
  /** The envelope's `data` (or the raw answer when there was no envelope). */
  data?: unknown;
  /** The HTTP status, when a response was received. */
  status?: number;
}

/**
 * A request whose answer was not accepted: an envelope whose `code` is not 0, an answer without
 * an envelope, or an HTTP error status (413 included). `message` is the server's `message` when
 * it sent one.
 */
export class ApiError extends Error {
  /**
   * The envelope's `code` (e.g. 2001 blacklisted, 2002 already rated: `ApiErrorCode` of
   * `@kefu-im/sdk/codes`), or -1 (`ApiErrorCode.NoEnvelope`) when the answer carried no envelope.
   */
  readonly code: ApiErrorCode | (number & {}); // `& {}` keeps the known codes visible next to `number`
  /** The envelope's `data`, or the raw answer when there was no envelope. */
  readonly data: unknown;
  /** The HTTP status, when a response was received. */
  readonly status?: number;

  /** @param init - code, message, data and status */
  constructor(init: ApiErrorInit) {
    super(init.message);
    this.name = 'ApiError';
    this.code = init.code;
    this.data = init.data;
    if (init.status !== undefined) this.status = init.status;
  }
}

/**
 * A request that was cancelled through its `AbortSignal` (or by `HttpClient.destroy()`).
 *
 * The spec (§8) says a cancelled request "never settles"; we reject with this distinguishable
 * error instead, so that nothing is left pending. The UI ignores it: no notice is shown for it.
 */
export class RequestCancelledError extends Error {
  /** @param message - what was cancelled (default `Request cancelled`) */
  constructor(message = 'Request cancelled') {
    super(message);
    this.name = 'RequestCancelledError';
  }
}

/**
 * Whether `e` is a cancellation (a {@link RequestCancelledError}, or any error named
 * `RequestCancelledError`, e.g. from another copy of this package).
 * @param e - anything caught
 * @returns true for a cancellation
 */
export function isCancelledError(e: unknown): boolean {
  return e instanceof RequestCancelledError || (e instanceof Error && e.name === 'RequestCancelledError');
}

/**
 * The error a request rejects with when its own timeout fires. Its message contains `timeout`
 * (spec §8 keys the timeout notice on that word).
 */
export class RequestTimeoutError extends Error {
  /** The timeout that fired, ms. */
  readonly timeout: number;

  /** @param timeout - the timeout that fired, ms */
  constructor(timeout: number) {
    super(`Request timeout: no answer within ${timeout} ms`);
    this.name = 'RequestTimeoutError';
    this.timeout = timeout;
  }
}
