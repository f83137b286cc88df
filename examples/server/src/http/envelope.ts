/**
 * The response envelope `{ code, message, data }` and the failure codes of docs/protocol.md §3.
 * @module
 */

/** Failure codes used by this server. */
export const Code = {
  Ok: 0,
  Internal: 1000,
  BadRequest: 1001,
  BadSalt: 1002,
  NotFound: 1003,
  Blacklisted: 2001,
  AlreadyRated: 2002,
  Banned: 2003,
  Translate: 2004,
  Upload: 3001,
  UploadQuota: 3002,
  Forbidden: 4003,
  TooFrequent: 413,
} as const;

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
    readonly code: number,
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
export function fail(code: number, message: string): Envelope<null> {
  return { code, message, data: null };
}
