/**
 * The reference server as the load bench runs it: `createServer` on 127.0.0.1, port 0, an
 * in-memory database, a temporary data directory (keys), generated agent accounts (`AGENTS`) and
 * the rate limits raised so that the bench measures throughput, not refusals.
 * @module
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../examples/server/src/config.js';
import { createServer } from '../../examples/server/src/server.js';
import { ProcessSampler, type ProcessStats } from './stats.js';

/** The loopback address every part of the bench uses. */
export const LOOPBACK = '127.0.0.1';

/** Rate limits set for the run (the server's own defaults are 10 messages / 5 s and 300 calls / min). */
export const RAISED_LIMITS = Object.freeze({
  RATE_SOCKET_MAX: '1000000',
  RATE_SOCKET_WINDOW_MS: '1000',
  RATE_HTTP_MAX: '1000000',
  RATE_HTTP_WINDOW_MS: '60000',
  // every bench client connects from 127.0.0.1: the per-address limits would refuse the ramp
  RATE_KEY_SESSIONS_MAX: '1000000',
  RATE_CONNECTS_MAX: '1000000',
  AGENT_LOGIN_CONCURRENCY: '1000',
});

/** Where the bench reaches the server. */
export interface BenchServerInfo {
  /** Host root (`http://127.0.0.1:port`), the SDK's `baseUrl`. */
  url: string;
  /** `ws://127.0.0.1:port/ws`. */
  socketUrl: string;
  /** The SDK option `socketKey`. */
  socketKey: string;
}

/** Server-side figures since the last mark. */
export interface BenchServerStats extends ProcessStats {
  /** Open socket connections now. */
  connections: number;
  /** Unexpected errors the server reported (its `onError`) since start. */
  errors: number;
  /** The first such error, if any. */
  firstError: string;
}

/** A running bench server. */
export interface BenchServer {
  /** Where to reach it. */
  info: BenchServerInfo;
  /** Starts a new measurement interval. */
  mark(): void;
  /** Figures since the last mark. */
  stats(): BenchServerStats;
  /** Closes the server and removes its data directory. */
  close(): Promise<void>;
}

/** The agent account names and passwords of a run. */
export function benchAgentAccounts(count: number): { account: string; password: string }[] {
  return Array.from({ length: count }, (_, i) => ({ account: `bench-agent-${i + 1}`, password: `bench-pw-${i + 1}` }));
}

/** The environment given to the server's `loadConfig` for a run. */
export function benchServerEnv(agents: number, aes: boolean): Record<string, string> {
  const accounts = benchAgentAccounts(agents).map((a, i) => `${a.account}:${a.password}:Bench Agent ${i + 1}`);
  return { AGENTS: accounts.join(','), AES_SWITCH: aes ? 'true' : 'false', SEED: 'true', LOG: 'false', ...RAISED_LIMITS };
}

/**
 * Starts the reference server in this process.
 * @param env - the configuration environment (see {@link benchServerEnv})
 * @param sampler - samples this process (shared with the bench when in-process)
 */
export async function startBenchServer(env: Record<string, string>, sampler: ProcessSampler): Promise<BenchServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kefu-load-'));
  let errors = 0;
  let firstError = '';
  try {
    const config = loadConfig(env, { port: 0, host: LOOPBACK, memoryDb: true, dataDir, appDir: join(dataDir, 'no-app'), log: false });
    const server = await createServer(config, {
      onError: (error) => {
        errors += 1;
        if (firstError === '') firstError = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      },
    });
    return {
      info: { url: server.url, socketUrl: server.socketUrl, socketKey: server.socketKey },
      mark: () => sampler.mark(),
      stats: () => ({ ...sampler.read(), connections: server.connections(), errors, firstError }),
      close: async () => {
        try {
          await server.close();
        } finally {
          rmSync(dataDir, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}
