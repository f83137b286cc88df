/**
 * A fresh clone installs and packs cleanly (issue 23): every package the lockfile installs
 * supports the oldest Node the project promises (no EBADENGINE warning on it), the README promises
 * what `engines` says, the install scripts npm asks about are approved (`allowScripts`), and
 * `npm pack`'s tarballs are ignored by git. Reads the files; installs nothing.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const root = new URL('../', import.meta.url);
const json = <T>(path: string): T => JSON.parse(readFileSync(new URL(path, root), 'utf8')) as T;

/** npm's own range rules (the `semver` package npm and the tools here use). */
const semver = createRequire(import.meta.url)('semver') as {
  minVersion(range: string): { version: string } | null;
  satisfies(version: string, range: string): boolean;
};

interface LockEntry {
  version?: string;
  optional?: boolean;
  engines?: { node?: string } | string[];
}

const rootPackage = json<{ engines: { node: string }; allowScripts?: Record<string, boolean> }>('package.json');
const lock = json<{ packages: Record<string, LockEntry> }>('package-lock.json');
const oldestNode = semver.minVersion(rootPackage.engines.node)?.version ?? '';

describe('install on the oldest Node promised', () => {
  it(`every package the lockfile installs supports Node ${oldestNode} (optional ones npm skips without a word)`, () => {
    expect(oldestNode).toMatch(/^20\./);
    const unsupported = Object.entries(lock.packages)
      .filter(([path, entry]) => path !== '' && entry.optional !== true)
      .flatMap(([path, entry]) => {
        const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
        return range !== undefined && !semver.satisfies(oldestNode, range) ? [`${path}@${entry.version ?? '?'} wants node ${range}`] : [];
      });
    expect(unsupported).toEqual([]);
  });

  it('every workspace promises the same Node as the root, and the README says it', () => {
    for (const workspace of ['react', 'examples/kefu', 'examples/server']) {
      expect(json<{ engines: { node: string } }>(`${workspace}/package.json`).engines.node, workspace).toBe(rootPackage.engines.node);
    }
    const readme = readFileSync(new URL('README.md', root), 'utf8');
    const promised = /^Node (\d+\.\d+) or newer\./m.exec(readme)?.[1];
    expect(`${promised}.0`).toBe(oldestNode);
  });

  it('the install scripts npm asks about (better-sqlite3 builds its binding, esbuild checks its binary) are approved in allowScripts', () => {
    expect(rootPackage.allowScripts).toEqual({ 'better-sqlite3': true, esbuild: true });
  });
});

describe('npm pack', () => {
  it.each(['kefu-im-sdk-0.1.0.tgz', 'react/kefu-im-react-0.1.0.tgz'])('its tarball %s is ignored by git', (tarball) => {
    // exit code 0: ignored; 1: not ignored (execFileSync throws)
    expect(() => execFileSync('git', ['check-ignore', '-q', tarball], { cwd: root })).not.toThrow();
  });
});
