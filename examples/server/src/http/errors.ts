/**
 * The global error and not-found handlers: every failure is an envelope with a clear message,
 * never a stack trace; 413 for too many requests.
 * @module
 */

import type { FastifyError, FastifyInstance } from 'fastify';
import { ApiError, Code, fail } from './envelope.js';

/** Marks the object the rate limiter throws. */
export const RATE_LIMITED = 'kefuRateLimited';

/** What the rate limiter throws (built by `errorResponseBuilder`). */
export function rateLimitedError(): Record<string, unknown> {
  return { statusCode: 413, code: Code.TooFrequent, message: 'Requests too frequent, please try again later', data: null, [RATE_LIMITED]: true };
}

function isRateLimited(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as Record<string, unknown>)[RATE_LIMITED] === true;
}

/** Installs the handlers. `onUnexpected` logs what is not a client's fault. */
export function installErrorHandlers(app: FastifyInstance, onUnexpected: (error: unknown) => void): void {
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (isRateLimited(error)) return reply.code(413).send(fail(Code.TooFrequent, 'Requests too frequent, please try again later'));
    if (error instanceof ApiError) return reply.code(200).send(fail(error.code, error.message));
    const code = typeof error.code === 'string' ? error.code : '';
    if (code === 'FST_REQ_FILE_TOO_LARGE' || code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') {
      return reply.code(200).send(fail(Code.Upload, 'Upload failed: the file is too large or there are too many parts'));
    }
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return reply.code(200).send(fail(Code.BadRequest, 'The request body is too large'));
    if (code.startsWith('FST_ERR_CTP') || code === 'FST_INVALID_MULTIPART_CONTENT_TYPE' || code.startsWith('FST_')) {
      return reply.code(200).send(fail(Code.BadRequest, `Bad request: ${error.message}`));
    }
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) return reply.code(200).send(fail(Code.BadRequest, `Bad request: ${error.message}`));
    onUnexpected(error);
    return reply.code(500).send(fail(Code.Internal, 'Internal server error'));
  });

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(fail(Code.NotFound, `Not found: ${request.method} ${request.url.split('?')[0] ?? ''}`));
  });
}
