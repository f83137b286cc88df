/**
 * Vite configuration of the reference kefu app. The SDK, its embed helpers and the React bindings
 * are taken from their sources (so the app always runs against the code in this repository).
 * `KEFU_SERVER` (default `http://127.0.0.1:8080`) is the reference server the dev server proxies to.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { Features } from 'lightningcss';
import { defineConfig, type Plugin } from 'vite';

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));
const server = process.env['KEFU_SERVER'] ?? 'http://127.0.0.1:8080';

/**
 * The production page's Content-Security-Policy: scripts only from the app's own files (so that
 * nothing a message holds could ever run), no plugins, no foreign base URL. Images, media and
 * the API may live on another host (`VITE_KEFU_SERVER`, uploaded files). Not applied to the dev
 * server, whose React refresh runs an inline script.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: http: https:",
  "media-src 'self' blob: http: https:",
  "connect-src 'self' ws: wss: http: https:",
  "font-src 'self' data:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');

function contentSecurityPolicy(): Plugin {
  return {
    name: 'kefu-csp',
    apply: 'build',
    transformIndexHtml: () => [{ tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: CONTENT_SECURITY_POLICY }, injectTo: 'head-prepend' }],
  };
}

/**
 * The public configuration's call (`src/env/public-config.ts`) starts from the page itself, while
 * the entry script loads: on a slow phone the entry is evaluated hundreds of ms after the page
 * arrives. Only when the API is the page's own origin (no `VITE_KEFU_SERVER`).
 */
function preloadConfig(): Plugin {
  return {
    name: 'kefu-preload-config',
    apply: 'build',
    transformIndexHtml: () =>
      (process.env['VITE_KEFU_SERVER'] ?? '').trim() !== ''
        ? []
        : [{ tag: 'link', attrs: { rel: 'preload', href: '/im/api/public/config', as: 'fetch', crossorigin: 'anonymous' }, injectTo: 'head' }],
  };
}

/** The SDK modules its `start()` loads on first use (the key exchange), and the RSA library. */
const START_UP_MODULES = [/\/src\/startup\.ts$/, /\/src\/socket\/connect-params\.ts$/, /\/src\/crypto\/aes-ecb\.ts$/, /\/src\/socket\/stack\.ts$/, /\/src\/tabs\/coordination\.ts$/, /\/micro-rsa-dsa-dh\//];

/**
 * The SDK's start-up chunks (and what they import) are fetched from the page, beside the entry:
 * otherwise each is asked for only when the code before it ran (four steps in a row on a phone).
 */
function preloadStartUp(): Plugin {
  return {
    name: 'kefu-preload-start-up',
    apply: 'build',
    transformIndexHtml: (_html, ctx) => {
      const bundle = ctx.bundle;
      if (!bundle) return [];
      const wanted = new Set<string>();
      const add = (file: string): void => {
        const chunk = bundle[file];
        if (wanted.has(file) || !chunk || chunk.type !== 'chunk') return;
        wanted.add(file);
        for (const dep of chunk.imports) add(dep);
      };
      for (const chunk of Object.values(bundle)) {
        if (chunk.type === 'chunk' && !chunk.isEntry && chunk.moduleIds.some((id) => START_UP_MODULES.some((re) => re.test(id)))) add(chunk.fileName);
      }
      // the entry's own imports are preloaded by Vite already
      for (const chunk of Object.values(bundle)) if (chunk.type === 'chunk' && chunk.isEntry) for (const dep of [chunk.fileName, ...chunk.imports]) wanted.delete(dep);
      return [...wanted].sort().map((file) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` }, injectTo: 'head' as const }));
    },
  };
}

/**
 * V8's explicit compile hint (Chrome 136+, ignored elsewhere): the entry chunk's functions are
 * compiled eagerly, on a background thread while the file streams in, instead of on the main
 * thread at each function's first call during start-up.
 */
function compileHints(): Plugin {
  return {
    name: 'kefu-compile-hints',
    apply: 'build',
    // after Vite's own generateBundle (it puts its preload map in front): the hint must be the first line
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const chunk of Object.values(bundle)) if (chunk.type === 'chunk' && chunk.isEntry) chunk.code = `//# allFunctionsCalledOnLoad\n${chunk.code}`;
      },
    },
  };
}

/** The built files worth compressing (text), and the smallest size that is. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|webmanifest)$/;
const COMPRESS_FROM_BYTES = 1024;

/**
 * Each text file of the build (`dist/`, the public files included) also as `.br` (Brotli, best
 * quality) and `.gz` (gzip -9), written once here rather than on each request: the reference
 * server sends them to browsers that accept them (`@fastify/static` `preCompressed`). The entry
 * chunk goes over the wire at ~30% of its size. A compressed copy that is not smaller is not kept.
 */
function precompress(): Plugin {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? walk(path) : [path];
    });
  return {
    name: 'kefu-precompress',
    apply: 'build',
    writeBundle(options) {
      if (!options.dir) return;
      for (const file of walk(options.dir)) {
        if (!COMPRESSIBLE.test(file)) continue;
        const body = readFileSync(file);
        if (body.length < COMPRESS_FROM_BYTES) continue;
        const br = brotliCompressSync(body, {
          params: { [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT, [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length },
        });
        if (br.length < body.length) writeFileSync(`${file}.br`, br);
        const gz = gzipSync(body, { level: 9 });
        if (gz.length < body.length) writeFileSync(`${file}.gz`, gz);
      }
    },
  };
}

export default defineConfig({
  root: here('.'),
  plugins: [react(), contentSecurityPolicy(), preloadConfig(), preloadStartUp(), compileHints(), precompress()],
  resolve: {
    alias: [
      { find: /^@kefu-im\/sdk\/embed$/, replacement: here('../../src/embed/index.ts') },
      { find: /^@kefu-im\/sdk\/protocol$/, replacement: here('../../src/protocol.ts') },
      { find: /^@kefu-im\/sdk\/agent$/, replacement: here('../../src/agent/index.ts') },
      { find: /^@kefu-im\/sdk\/format$/, replacement: here('../../src/format.ts') },
      { find: /^@kefu-im\/sdk\/upload$/, replacement: here('../../src/upload/index.ts') },
      { find: /^@kefu-im\/sdk\/codes$/, replacement: here('../../src/codes.ts') },
      { find: /^@kefu-im\/sdk$/, replacement: here('../../src/index.ts') },
      { find: /^@kefu-im\/react$/, replacement: here('../../react/src/index.ts') },
      // React 19 has useSyncExternalStore: wouter's shim for older Reacts is left out
      { find: /^use-sync-external-store\/shim(\/index\.js)?$/, replacement: here('src/build/use-sync-external-store-shim.ts') },
    ],
  },
  css: {
    // The stylesheet's font stack is written by hand (system-ui, then each platform's UI and CJK
    // fonts). For the es2020 target lightningcss would insert its own system-ui fallback list
    // after system-ui (-apple-system, BlinkMacSystemFont, Segoe UI, Roboto, Noto Sans, Ubuntu,
    // Cantarell, Helvetica Neue): a Chinese text then walks eleven families before its CJK font,
    // and a first visit asks the system for every one that is missing (bench/README.md, ninth pass).
    lightningcss: { exclude: Features.FontFamilySystemUi },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2020',
    // es2020 has no class fields, so they are lowered; by default into defineProperty calls
    // through a helper. Assigning them (`this.x = v`) is smaller and the same here, as no class
    // field shadows an accessor of its base (the bases: Error, EventEmitter, Subscribable, React's
    // Component; the bundled libraries declare no accessors).
    rolldownOptions: { transform: { assumptions: { setPublicClassFields: true } } },
    sourcemap: false,
    reportCompressedSize: false,
  },
  server: {
    // The Host header is kept, so that the server's public config names the dev server's origin.
    proxy: {
      '/im': { target: server, changeOrigin: false },
      '/oss': { target: server, changeOrigin: false },
      '/translate': { target: server, changeOrigin: false },
      '/files': { target: server, changeOrigin: false },
      '/ws': { target: server.replace(/^http/, 'ws'), ws: true, changeOrigin: false },
    },
  },
});
