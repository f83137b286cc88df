/**
 * The reference app: `examples/kefu/dist` when it is built (its routes answer index.html), else a
 * small placeholder page. Uploaded files are served at `/files/` with a strict policy.
 * @module
 */

import { existsSync } from 'node:fs';
import { join, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { HttpDeps } from './deps.js';

/** The cache policy of the build's hashed files (`assets/`): their name changes with their content. */
export const IMMUTABLE_ASSET = 'public, max-age=31536000, immutable';

/** The suffix of a precompressed copy of a built file. */
const PRECOMPRESSED = /\.(?:br|gz)$/;

/** The app's routes (spec §2) that answer the app's page. */
const APP_ROUTES = ['/', '/kefu', '/kefu/*', '/group', '/group/*', '/redirect/*', '/agent', '/agent/*', '/404', '/401'];

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The placeholder page shown until the reference app is built. */
export function placeholderPage(entryPath: string): string {
  const entry = escapeHtml(entryPath);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>kefu-im server</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;line-height:1.5;color:#222}code{background:#f3f3f3;padding:0 .25rem;border-radius:3px}</style>
</head><body>
<h1>kefu-im reference server</h1>
<p>The server is running: the API lives under <code>/im</code>, the socket at <code>/ws</code>, uploads under <code>/oss</code>.</p>
<p>The reference app is not built yet (build <code>examples/kefu</code> and restart to serve it here).</p>
<ul>
<li>Public configuration for integrators: <a href="/im/api/public/config">/im/api/public/config</a></li>
<li>Demo visitor entry link: <a href="${entry}">${entry}</a></li>
<li>Agent desk: <a href="/agent">/agent</a> (served by the reference app)</li>
</ul>
</body></html>
`;
}

/** Registers `/files/` and the app (or the placeholder). */
export async function registerAppRoutes(app: FastifyInstance, deps: HttpDeps, filesDir: string, entryPath: () => string): Promise<void> {
  await app.register(fastifyStatic, {
    root: filesDir,
    prefix: '/files/',
    decorateReply: false,
    index: false,
    dotfiles: 'deny',
    setHeaders: (reply) => {
      reply.header('X-Content-Type-Options', 'nosniff');
      reply.header('Content-Security-Policy', "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; sandbox");
    },
  });

  const appDir = deps.config.appDir;
  const built = existsSync(join(appDir, 'index.html'));
  const noLimit = { config: { rateLimit: false } };
  if (built) {
    const assetsDir = join(appDir, 'assets');
    await app.register(fastifyStatic, {
      root: appDir,
      prefix: '/',
      index: false,
      wildcard: true,
      decorateReply: true,
      // The build's `.br` / `.gz` copies (examples/kefu/vite.config.ts) to browsers that accept
      // them, with `Vary: Accept-Encoding`; the file as it is otherwise (an app built elsewhere).
      preCompressed: true,
      // Hashed files are kept a year and never revalidated; the page itself is revalidated each time.
      setHeaders: (reply, sentPath) => {
        const path = sentPath.replace(PRECOMPRESSED, '');
        if (path.startsWith(assetsDir + sep)) reply.header('cache-control', IMMUTABLE_ASSET);
        else if (path.endsWith('.html')) reply.header('cache-control', 'no-cache');
      },
    });
    for (const url of APP_ROUTES) {
      app.get(url, noLimit, (_request, reply) => reply.header('cache-control', 'no-cache').sendFile('index.html', appDir));
    }
    return;
  }
  for (const url of APP_ROUTES) {
    app.get(url, noLimit, (_request, reply) => reply.type('text/html; charset=utf-8').send(placeholderPage(entryPath())));
  }
}
