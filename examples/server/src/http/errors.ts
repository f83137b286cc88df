/**
 * The global error and not-found handlers: every failure is an envelope with a clear message,
 * never a stack trace; 413 for too many requests.
 * @module
 */

import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { ApiError, Code, fail } from './envelope.js';
import { localizedMessage } from './localize.js';

/** Marks the object the rate limiter throws. */
export const RATE_LIMITED = 'kefuRateLimited';

/** What the rate limiter throws (built by `errorResponseBuilder`). */
export function rateLimitedError(): Record<string, unknown> {
  return { statusCode: 413, code: Code.TooFrequent, message: 'Requests too frequent, please try again later', data: null, [RATE_LIMITED]: true };
}

/** An error answered like the rate limiter's: HTTP 413 with the `413` envelope (too many requests). */
export function tooManyRequests(): Error {
  return Object.assign(new Error('Requests too frequent, please try again later'), { [RATE_LIMITED]: true });
}

function isRateLimited(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as Record<string, unknown>)[RATE_LIMITED] === true;
}

/** What a response stream fails with when the client closed the connection before its end. */
const CLIENT_GONE = 'ERR_STREAM_PREMATURE_CLOSE';

/** Paths that belong to the API, the socket or stored files: an unknown one there is a JSON 404. */
const API_PREFIXES = ['/im/', '/oss/', '/translate/', '/files/', '/ws', '/admin/'];

/**
 * Installs the handlers. `onUnexpected` logs what is not a client's fault. `appPage`, when the
 * app is built, answers a browser's GET of an unknown page path with the app, whose router then
 * shows its 404 page (spec §2: any other path redirects to /404).
 */
export function installErrorHandlers(
  app: FastifyInstance,
  onUnexpected: (error: unknown) => void,
  appPage?: (reply: FastifyReply) => FastifyReply | null,
): void {
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    const lang = request.headers['accept-language'];
    if (isRateLimited(error)) {
      return reply.code(413).send(fail(Code.TooFrequent, localizedMessage(Code.TooFrequent, lang, 'Requests too frequent, please try again later')));
    }
    if (error instanceof ApiError) return reply.code(error.status).send(fail(error.code, localizedMessage(error.code, lang, error.message)));
    const code = typeof error.code === 'string' ? error.code : '';
    if (code === 'FST_REQ_FILE_TOO_LARGE' || code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') {
      return reply.code(200).send(fail(Code.Upload, 'Upload failed: the file is too large or there are too many parts'));
    }
    // bodies the server cannot read: 4xx (400, or 415 for a content type it does not take)
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return reply.code(400).send(fail(Code.BadRequest, 'Malformed request body: it is too large'));
    if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return reply.code(415).send(fail(Code.BadRequest, `Unsupported content type: ${request.headers['content-type'] ?? 'none'}`.slice(0, 200)));
    if (code.startsWith('FST_ERR_CTP') || code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') {
      return reply.code(400).send(fail(Code.BadRequest, `Malformed request body: ${error.message}`));
    }
    if (code.startsWith('FST_')) return reply.code(200).send(fail(Code.BadRequest, `Bad request: ${error.message}`));
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) return reply.code(200).send(fail(Code.BadRequest, `Bad request: ${error.message}`));
    // The client went away in the middle of the answer (a tab closed, a page left while its
    // compressed history page streamed): nobody is told, and nothing went wrong here.
    if (code !== CLIENT_GONE) onUnexpected(error);
    return reply.code(500).send(fail(Code.Internal, 'Internal server error'));
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const wantsPage = request.method === 'GET' && (request.headers.accept ?? '').includes('text/html');
    if (wantsPage && appPage && !API_PREFIXES.some((p) => path.startsWith(p))) {
      const served = appPage(reply);
      if (served) return served;
    }
    return reply.code(404).send(fail(Code.NotFound, `Not found: ${request.method} ${path}`));
  });
}
