/**
 * The reference app's production build for the browser tests, and the temporary directories they use.
 * @module
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

/** The reference app's directory. */
export const KEFU_DIR = fileURLToPath(new URL('../../examples/kefu/', import.meta.url));

/** A fresh temporary directory. */
export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Removes a directory. */
export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Builds the app for production into a temporary directory.
 * @returns the directory (holding `index.html` and `assets/`)
 */
export async function buildApp(): Promise<string> {
  const outDir = tempDir('kefu-app-');
  // Vitest sets NODE_ENV=test; a production build needs production (React's production build).
  const nodeEnv = process.env['NODE_ENV'];
  process.env['NODE_ENV'] = 'production';
  try {
    await build({ configFile: join(KEFU_DIR, 'vite.config.ts'), mode: 'production', logLevel: 'silent', build: { outDir, emptyOutDir: true } });
  } finally {
    if (nodeEnv === undefined) delete process.env['NODE_ENV'];
    else process.env['NODE_ENV'] = nodeEnv;
  }
  return outDir;
}
