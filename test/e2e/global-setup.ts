/**
 * The e2e project's global setup: builds the reference app once for the whole run (each file used
 * to build it again, about 10 s a file under load) and hands its directory to the test files
 * (`inject('kefuAppDir')`, see `sharedApp` in harness.ts); removes it after the run.
 * @module
 */
import type { TestProject } from 'vitest/node';
import { buildApp, removeDir } from './app-build.js';

/**
 * Builds the app and provides its directory.
 * @param project - the e2e project
 * @returns the teardown (removes the build)
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const appDir = await buildApp();
  project.provide('kefuAppDir', appDir);
  return () => removeDir(appDir);
}
