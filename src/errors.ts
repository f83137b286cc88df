/**
 * The error of a client call, with a machine-readable code.
 * @module
 */

/** The codes of {@link ImError}. */
export type ImErrorCode = 'blank' | 'destroyed' | 'not-started' | 'invalid-score' | 'not-found';

/** An error of a client call, with a machine-readable code. */
export class ImError extends Error {
  /** A short code: `blank`, `destroyed`, `not-started`, `invalid-score`, `not-found`. */
  readonly code: ImErrorCode;
  /**
   * @param code - machine-readable code
   * @param message - human-readable text
   */
  constructor(code: ImErrorCode, message: string) {
    super(message);
    this.name = 'ImError';
    this.code = code;
  }
}

/** An unknown thrown value as an Error. @internal */
export function asError(e: unknown): Error {
  return e instanceof Error ? e : new Error(String(e));
}
