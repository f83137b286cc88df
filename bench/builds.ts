/**
 * The SDK builds a browser bench runs side by side: this tree's `dist/`, and with
 * `BASE=dir` or `BASE=name=dir,name=dir` other builds' (e.g. main's, built apart).
 * @module
 */
import { join, resolve } from 'node:path';

/** A build of the SDK: its name in the tables and its `dist/` directory. */
export interface BenchBuild {
  name: string;
  dist: string;
}

/**
 * This tree's build and those of `BASE`.
 * @param root - the repository's root
 * @param base - the `BASE` variable (default: the environment's)
 */
export function benchBuilds(root: string, base = process.env['BASE'] ?? ''): BenchBuild[] {
  return [
    { name: 'this build', dist: join(root, 'dist') },
    ...base
      .split(',')
      .filter(Boolean)
      .map((entry) => (entry.includes('=') ? { name: entry.slice(0, entry.indexOf('=')), dist: resolve(entry.slice(entry.indexOf('=') + 1)) } : { name: 'BASE', dist: resolve(entry) })),
  ];
}
