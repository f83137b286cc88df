/**
 * The response envelope `{ code, message, data }` and the failure codes of docs/protocol.md §3.
 * @module
 */
import { ApiErrorCode } from '@kefu-im/sdk/codes';

/**
 * The envelope codes (docs/protocol.md §3): the shared ones of `@kefu-im/sdk/codes`, which the
 * SDK and the app read too.
 */
export const Code = ApiErrorCode;

/** The envelope of every answer. */
export interface Envelope<T = unknown> {
  /** 0 on success. */
  code: number;
  /** User-facing text. */
  message: string;
  /** The answer. */
  data: T;
}

/**
 * A failure answered as an envelope with a non-zero code: HTTP 200, or `status` for a request the
 * server could not read at all (a malformed body: 400, an unsupported content type: 415).
 */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly status = 200,
  ) {
    super(message);
  }
}

/** A body that cannot be read (malformed multipart or JSON): HTTP 400, code 1001. */
export function malformedBody(what: string): ApiError {
  return new ApiError(Code.BadRequest, `Malformed request body: ${what}`, 400);
}

/** A success envelope. */
export function ok<T>(data: T): Envelope<T> {
  return { code: Code.Ok, message: 'success', data };
}

/** A failure envelope. */
export function fail(code: ApiErrorCode, message: string): Envelope<null> {
  return { code, message, data: null };
}
