/**
 * Services that some tests need besides the server itself (Redis, the `redis-server` binary).
 * One rule for all of them: where a service is missing, the tests print why and skip; under CI
 * (`CI` set) a missing service is a failure, since `.ci/run` makes sure every one runs.
 * @module
 */
import { spawnSync } from 'node:child_process';
import { Redis } from 'ioredis';

/** The Redis the tests use (`TEST_REDIS_URL`, default `redis://127.0.0.1:6379`). */
export const TEST_REDIS_URL = process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

/**
 * Why Redis at `url` cannot be used, or null when it answers a PING.
 * @param url - the Redis URL (default {@link TEST_REDIS_URL})
 */
export async function redisUnavailable(url: string = TEST_REDIS_URL): Promise<string | null> {
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  let cause: unknown; // the socket's error (ECONNREFUSED, ...) says more than the rejection
  probe.on('error', (error: unknown) => (cause ??= error));
  try {
    await probe.connect();
    await probe.ping();
    return null;
  } catch (error) {
    const reason = cause ?? error;
    return `Redis does not answer at ${url} (${reason instanceof Error ? reason.message : String(reason)})`;
  } finally {
    probe.disconnect();
  }
}

/** Why no private `redis-server` can be started here, or null when the binary runs. */
export function redisServerUnavailable(): string | null {
  return spawnSync('redis-server', ['--version']).status === 0 ? null : 'redis-server is not installed (apt-get install -y redis-server)';
}

/**
 * Applies the rule to what a test file misses: nothing, run; something, skip with the reason
 * printed, or fail under CI.
 * @param suite - the tests' name, printed as `[suite] skipped: …`
 * @param missing - why the tests cannot run here, or null when they can
 * @returns true when the tests must be skipped (`describe.skipIf(skip)`)
 * @throws Error under CI when something is missing: the reason, as the file's failure
 */
export function skipUnlessCi(suite: string, missing: string | null): boolean {
  if (missing === null) return false;
  if (process.env['CI']) throw new Error(`[${suite}] must run under CI, but: ${missing}`);
  console.warn(`[${suite}] skipped: ${missing}`);
  return true;
}

/**
 * The rule for tests on the shared Redis ({@link TEST_REDIS_URL}).
 * @param suite - the tests' name, printed with the reason
 * @returns true when the tests must be skipped
 * @throws Error under CI when Redis does not answer
 */
export async function skipWithoutRedis(suite: string): Promise<boolean> {
  return skipUnlessCi(suite, await redisUnavailable());
}
