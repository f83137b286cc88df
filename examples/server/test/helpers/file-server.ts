/**
 * One server for a whole test file, with the file's checks around it.
 * @module
 */
import { afterAll, beforeAll } from 'vitest';
import type { ServerConfig } from '../../src/config.js';
import { removeDir, startServer, type StartedServer } from './start.js';

/**
 * Starts a server before the file's tests and closes it after them (its data directory removed);
 * then the file fails if the server reported an unexpected error on the way. The object returned is
 * filled in when the tests start, so the file reads `server.url` as usual.
 * @param overrides - configuration, as for {@link startServer}
 * @param env - environment, as for {@link startServer}
 */
export function serverForFile(overrides: Partial<ServerConfig> = {}, env: Record<string, string> = {}): StartedServer {
  const server = {} as StartedServer;
  beforeAll(async () => {
    Object.assign(server, await startServer(overrides, env));
  });
  afterAll(async () => {
    if (server.close === undefined) return; // it never started: beforeAll's failure is reported
    try {
      await server.close(); // rejects, naming them, if the server reported unexpected errors
    } finally {
      removeDir(server.dataDir);
    }
  });
  return server;
}
