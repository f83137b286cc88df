// Measures the app's initial JavaScript on the production build: the entry script of
// dist/index.html and every chunk it imports statically (what the browser must load before the
// app starts), minified and gzipped. Lazy chunks (dialogs, the agent desk, catalogues, the app
// texts of languages other than zh, the upload tray, the open-app actions) are counted apart.
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** Budget of the app's initial JavaScript, bytes min+gzip (issue 13; it was 150 kB in issue 5). */
export const APP_BUDGET_BYTES = 120 * 1024;

const STATIC_IMPORT = /(?:^|[;}\s])(?:import|export)\s*(?:[\w*${}\s,]*?\s*from\s*)?["'](\.{1,2}\/[^"']+\.js)["']/g;

/**
 * The static imports of a chunk (relative specifiers), ignoring `import("...")`.
 * @param {string} code
 */
export function staticImports(code) {
  const out = new Set();
  for (const m of code.matchAll(STATIC_IMPORT)) out.add(m[1]);
  return [...out];
}

/**
 * @param {string} distDir - the built app (`examples/kefu/dist`)
 * @returns {Promise<{ initial: number, initialFiles: string[], lazy: number, lazyFiles: number }>}
 */
export async function measureApp(distDir) {
  const html = await readFile(join(distDir, 'index.html'), 'utf8');
  const entries = [...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g)].map((m) => m[1]);
  if (entries.length === 0) throw new Error('dist/index.html references no module script');
  const seen = new Set();
  const visit = async (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = await readFile(join(distDir, file), 'utf8');
    const dir = file.slice(0, file.lastIndexOf('/') + 1);
    for (const spec of staticImports(code)) await visit(new URL(spec, `http://x/${dir}`).pathname.slice(1));
  };
  for (const src of entries) await visit(src.replace(/^\//, ''));
  const gz = async (file) => gzipSync(await readFile(join(distDir, file)), { level: 9 }).length;
  let initial = 0;
  for (const f of seen) initial += await gz(f);
  let lazy = 0;
  let lazyFiles = 0;
  for (const f of await readdir(join(distDir, 'assets'))) {
    const rel = `assets/${f}`;
    if (!f.endsWith('.js') || seen.has(rel)) continue;
    lazy += await gz(rel);
    lazyFiles += 1;
  }
  return { initial, initialFiles: [...seen], lazy, lazyFiles };
}
