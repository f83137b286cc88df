/**
 * Racing a transport call against an abort signal: the HTTP layer's cancelled requests never
 * settle (spec §8), so the uploader must not wait for them.
 * @module
 * @internal
 */
import { RequestCancelledError } from '../http/errors.js';

/**
 * The error an upload rejects with when it is cancelled.
 * @internal
 */
export function uploadCancelledError(): RequestCancelledError {
  return new RequestCancelledError('Upload cancelled');
}

/**
 * Settles like `promise`, or rejects with {@link uploadCancelledError} as soon as `signal` aborts
 * (at once when it already has), whichever comes first.
 * @internal
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(uploadCancelledError());
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(uploadCancelledError());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
