/**
 * Starts the real server on a loopback port for a test.
 * @module
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type ServerConfig } from '../../src/config.js';
import { createServer, type CreateServerOptions, type RunningServer } from '../../src/server.js';

/** The agents every test server knows. */
export const AGENTS = 'alice:secret1:Alice,bob:secret2:Bob';

/**
 * Every test client connects from the loopback address, so the per-address limits (new key
 * sessions, socket connects) are raised for test servers; a test of those limits sets its own.
 * All other limits keep their defaults unless a test raises them.
 */
export const LOOPBACK_LIMITS = Object.freeze({ RATE_KEY_SESSIONS_MAX: '100000', RATE_CONNECTS_MAX: '100000' });

/** A fresh temporary data directory. */
export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'kefu-server-test-'));
}

/** Removes a temporary directory. */
export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Starts a server with test defaults (port 0, in-memory DB, a temp data dir) and `overrides`;
 * `errors` collects what the server reported as unexpected. Its `close` closes the server, then
 * rejects if `errors` holds anything (a test that provokes errors on purpose checks and empties
 * it before): no test ends with an error of the server's left unseen.
 */
export async function startServer(
  overrides: Partial<ServerConfig> = {},
  env: Record<string, string> = {},
  options: CreateServerOptions = {},
): Promise<RunningServer & { dataDir: string; errors: unknown[] }> {
  const dataDir = overrides.dataDir ?? tempDir();
  const config = loadConfig({ AGENTS, ...LOOPBACK_LIMITS, ...env }, { port: 0, host: '127.0.0.1', memoryDb: true, log: false, appDir: join(dataDir, 'no-app'), ...overrides, dataDir });
  const errors: unknown[] = [];
  const server = await createServer(config, { onError: (e) => errors.push(e), ...options });
  return { ...server, close: closeCheckingErrors(server, errors, config.nodeId), dataDir, errors };
}

/** A server {@link startServer} started. */
export type StartedServer = Awaited<ReturnType<typeof startServer>>;

/**
 * The test servers' `close` (here and in the browser tests' harness): closes `server`, then rejects,
 * naming them, if `errors` holds anything the server reported as unexpected.
 * @param server - the running server
 * @param errors - what its `onError` collected
 * @param name - the server's name in the message (its node id)
 */
export function closeCheckingErrors(server: Pick<RunningServer, 'close'>, errors: readonly unknown[], name: string): () => Promise<void> {
  return async () => {
    await server.close();
    if (errors.length > 0) {
      throw new Error(`the server (${name}) reported ${errors.length} unexpected error(s): ${errors.map((e) => (e instanceof Error ? (e.stack ?? e.message) : String(e))).join('\n')}`);
    }
  };
}
