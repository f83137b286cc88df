/**
 * Security headers (SECURITY.md): every response gets `X-Content-Type-Options: nosniff` and a
 * `Referrer-Policy`; every HTML page (the app's routes, its fallback for unknown paths, the
 * placeholder) gets a Content-Security-Policy without inline script. The agent desk may never be
 * framed (`frame-ancestors 'none'`, `X-Frame-Options: DENY`); the visitor pages may be framed by
 * the origins of `FRAME_ANCESTORS` (default `'self'`), the merchant sites that embed the chat.
 * @module
 */

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServerConfig } from '../config.js';

/** The `Referrer-Policy` of every response. */
export const REFERRER_POLICY = 'strict-origin-when-cross-origin';

/**
 * The page policy without `frame-ancestors`: scripts only from the app's own files (no inline
 * script, no eval), no plugins, no foreign base URL or form target. Styles allow inline style
 * attributes (React's `style` props; no `<style>` or script can come from a message). Images and
 * media may be any https URL (links in messages) and the page's own uploads; the socket and API
 * are on this origin (`PUBLIC_URL`'s when set).
 */
export function pagePolicy(config: Pick<ServerConfig, 'publicUrl'>): string {
  let own = "'self'";
  if (config.publicUrl !== '') {
    const origin = new URL(config.publicUrl).origin;
    own = `'self' ${origin} ${origin.replace(/^http/, 'ws')}`;
  }
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src ${own} data: blob: https:`,
    `media-src ${own} blob: https:`,
    `connect-src ${own} ws: wss:`,
    "font-src 'self' data:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join('; ');
}

/** Whether an HTML page at `url` is the agent desk (`/agent`, `/agent/...`, however spelled). */
export function isAgentPage(url: string): boolean {
  let path = url.split('?')[0] ?? '';
  try {
    path = decodeURIComponent(path);
  } catch {
    // keep the raw path
  }
  path = path.toLowerCase().replace(/\/{2,}/g, '/');
  return path === '/agent' || path.startsWith('/agent/');
}

/** The whole CSP of an HTML page at `url`. */
export function pageCsp(config: Pick<ServerConfig, 'publicUrl' | 'frameAncestors'>, url: string): string {
  const ancestors = isAgentPage(url) ? "'none'" : config.frameAncestors.join(' ');
  return `${pagePolicy(config)}; frame-ancestors ${ancestors}`;
}

function isHtml(reply: FastifyReply): boolean {
  const type = reply.getHeader('content-type');
  return typeof type === 'string' && type.toLowerCase().startsWith('text/html');
}

/** Installs the headers on every response of `app` (call before the routes are registered). */
export function installSecurityHeaders(app: FastifyInstance, config: ServerConfig): void {
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    if (!reply.hasHeader('referrer-policy')) reply.header('Referrer-Policy', REFERRER_POLICY);
    // pages only; uploaded files under /files/ carry their own sandboxing policy
    if (isHtml(reply) && !reply.hasHeader('content-security-policy')) {
      reply.header('Content-Security-Policy', pageCsp(config, request.url));
      if (isAgentPage(request.url)) reply.header('X-Frame-Options', 'DENY');
    }
    return payload;
  });
}
