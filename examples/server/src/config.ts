/**
 * Server configuration: environment variables with sensible defaults. This file holds the
 * configuration's shape and {@link loadConfig}; each section's types and reader live in its own
 * file (`agents-config.ts`, `limits-config.ts`, `web-config.ts`, `merchant-config.ts`,
 * `routing-config.ts`, `privacy-config.ts`, `identity-config.ts`; the variable readers in
 * `env-vars.ts`) and are re-exported here.
 * @module
 */

import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseRoutingConfig, type RoutingConfig } from './routing-config.js';
import type { BusinessHours } from './services/business-hours.js';
import { parsePrivacyConfig, type PrivacyConfig } from './privacy-config.js';
import { parseIdentityConfig, type IdentityConfig } from './identity-config.js';
import { asConfigError, boolVar, ConfigError, intVar, type EnvLike } from './env-vars.js';
import { readAgents, readAgentSessions, type AgentAccount, type AgentSessionConfig } from './agents-config.js';
import {
  readAbuseLimits,
  readLoginThrottle,
  readRateLimits,
  readUploadLimits,
  type AbuseLimits,
  type LoginThrottleConfig,
  type RateLimits,
  type UploadLimits,
} from './limits-config.js';
import { isLoopbackHost, parseFrameAncestors, parseTrustProxy } from './web-config.js';
import { parseSneakPeekMerchants, readMerchantHours } from './merchant-config.js';

export { ConfigError, type EnvLike } from './env-vars.js';
export {
  checkDemoAgent,
  DEMO_CREDENTIALS,
  demoAgentAccount,
  parseAgents,
  type AgentAccount,
  type AgentSessionConfig,
} from './agents-config.js';
export type { AbuseLimits, LoginThrottleConfig, RateLimits, UploadLimits } from './limits-config.js';
export { isLoopbackHost, parseFrameAncestors, parseTrustProxy } from './web-config.js';
export { parseSneakPeekMerchants } from './merchant-config.js';

/** The whole server configuration. */
export interface ServerConfig {
  /** TCP port; 0 picks a free one (tests). */
  port: number;
  /** Interface to listen on. */
  host: string;
  /** Directory for the database, the keys and the uploaded files. */
  dataDir: string;
  /** Keep the database in memory instead of `DATA_DIR/kefu.db` (tests). */
  memoryDb: boolean;
  /**
   * `SQLITE_SYNCHRONOUS`: when the SQLite file (WAL) is synced to disk. `full` (the default):
   * every commit is fsynced before the server answers (an acknowledged message survives a power
   * loss; each commit waits for the disk on the event loop: 0.25 ms on the reference VM when
   * idle, 8-9 ms while other work used its disk).
   * `normal`: WAL commits are synced at checkpoints (never corrupt; a process crash loses
   * nothing, a power or OS crash may lose the last commits). Ignored for memory and PostgreSQL.
   */
  sqliteSynchronous: 'full' | 'normal';
  /**
   * `DATABASE_URL`: the PostgreSQL store (`postgres://...`) instead of SQLite; empty for SQLite.
   * Nodes with one database and one {@link ServerConfig.redisUrl} form a cluster.
   */
  databaseUrl: string;
  /** `REDIS_URL`: delivery between nodes, agent presence and shared rate limits; empty alone. */
  redisUrl: string;
  /** `FILES_DIR`: uploaded files (a shared folder in a cluster); empty for `DATA_DIR/files`. */
  filesDir: string;
  /** `NODE_ID`: this node's name in the cluster (logs, presence); host name and pid by default. */
  nodeId: string;
  /** `CLUSTER_NAME`: the prefix of the cluster's Redis channel and keys (`kefu`), so clusters may share one Redis. */
  clusterName: string;
  /** The AES switch (protocol §1.5): frames are AES-ECB encrypted when on. */
  aesSwitch: boolean;
  /** Agent accounts. */
  agents: AgentAccount[];
  /** Automatic assignment and agents' capacities (`routing-config.ts`). */
  routing: RoutingConfig;
  /** True when {@link ServerConfig.agents} is the built-in demo account (printed at start). */
  demoAgent: boolean;
  /** Agent login throttling. */
  loginThrottle: LoginThrottleConfig;
  /** Rate limits. */
  rate: RateLimits;
  /** Upload limits. */
  upload: UploadLimits;
  /** LibreTranslate-compatible base URL, or empty when translation is not configured. */
  translateUrl: string;
  /** Optional LibreTranslate API key. */
  translateApiKey: string;
  /**
   * Public base URL (`https://chat.example.com`) used in links and in the public config; empty
   * means "derive it from the listening address".
   */
  publicUrl: string;
  /** Directory of the built reference app (served when it exists). */
  appDir: string;
  /** Key sessions expire this long after their last use (ms). */
  keySessionTtlMs: number;
  /**
   * A key session no connect was accepted on (unbound) expires this long after its last use (ms;
   * at most `keySessionTtlMs`): a page's start-up that never connected costs the store little.
   */
  keySessionUnboundTtlMs: number;
  /** Idle sockets (no frame at all) are closed after this long (ms). */
  socketIdleMs: number;
  /** Write the demo seed data on first start. */
  seed: boolean;
  /** Log requests (fastify logger). */
  log: boolean;
  /** Abuse limits. */
  abuse: AbuseLimits;
  /** Agent desk sessions: tokens and the grace period of a vanished agent. */
  agentSessions: AgentSessionConfig;
  /**
   * Frame ancestors allowed to embed the visitor pages (CSP `frame-ancestors` sources,
   * `FRAME_ANCESTORS`); the agent desk is never framed.
   */
  frameAncestors: string[];
  /**
   * Addresses of trusted reverse proxies (`TRUST_PROXY`): requests from them are counted against
   * the address they forward (`X-Forwarded-For`). Empty: the TCP peer is the client.
   */
  trustProxy: string[];
  /**
   * Merchants whose agents see a visitor's draft as it is typed (sneak peek, protocol §5a;
   * `SNEAK_PEEK_MERCHANTS`, comma-separated merchant ids, `*` for all). Empty (the default): off,
   * unless switched on per merchant with the admin command (`merchant sneak-peek <mchId> on`).
   */
  sneakPeekMerchants: string[];
  /**
   * Business hours by merchant id (`MERCHANT_HOURS` JSON, or the file `MERCHANT_HOURS_FILE`);
   * `*` stands for every merchant not named. Hours set with the admin command win. None: always open.
   */
  merchantHours: Readonly<Record<string, BusinessHours>>;
  /** The admin API (`ADMIN_TOKEN`, off without it) and retention (`RETENTION_DAYS`), see `privacy-config.ts`. */
  privacy: PrivacyConfig;
  /** Verified identity (`MERCHANT_SECRETS`, `MERCHANT_SECRETS_KEY`, the demo secret), see `identity-config.ts`. */
  identity: IdentityConfig;
}

function sqliteSynchronousVar(env: EnvLike): 'full' | 'normal' {
  const raw = env['SQLITE_SYNCHRONOUS']?.trim().toLowerCase();
  if (raw === undefined || raw === '' || raw === 'full') return 'full';
  if (raw === 'normal') return 'normal';
  throw new ConfigError(`SQLITE_SYNCHRONOUS must be full or normal, got "${env['SQLITE_SYNCHRONOUS'] ?? ''}"`);
}

/**
 * Reads the configuration from environment variables (see the README for the list).
 * @param env - the environment, `process.env` by default.
 * @param overrides - values that win over the environment (tests).
 * @throws ConfigError when a variable holds an unusable value.
 */
export function loadConfig(env: EnvLike = process.env, overrides: Partial<ServerConfig> = {}): ServerConfig {
  const { agents, demoAgent } = readAgents(env);
  const publicUrl = (env['PUBLIC_URL'] ?? '').trim().replace(/\/+$/, '');
  if (publicUrl !== '' && !/^https?:\/\/[^/]+/.test(publicUrl)) {
    throw new ConfigError(`PUBLIC_URL must be an http(s) URL, got "${publicUrl}"`);
  }
  const databaseUrl = (env['DATABASE_URL'] ?? '').trim();
  const redisUrl = (env['REDIS_URL'] ?? '').trim();
  if (databaseUrl !== '' && !/^postgres(ql)?:\/\/[^\s]+$/.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be a PostgreSQL URL (postgres://user@host:5432/database)');
  }
  if (redisUrl !== '' && !/^rediss?:\/\/[^\s]+$/.test(redisUrl)) {
    throw new ConfigError('REDIS_URL must be a Redis URL (redis://host:6379)');
  }
  // nodes on one database without Redis would not hear each other's messages
  if (databaseUrl !== '' && redisUrl === '') {
    throw new ConfigError('DATABASE_URL needs REDIS_URL too: the nodes of a cluster deliver to each other through Redis');
  }
  const dataDir = resolve(env['DATA_DIR']?.trim() || './data');
  const clusterName = env['CLUSTER_NAME']?.trim() || 'kefu';
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(clusterName)) throw new ConfigError('CLUSTER_NAME is 1-64 letters, digits, _ and -');
  const translateUrl = (env['TRANSLATE_URL'] ?? '').trim().replace(/\/+$/, '');
  if (translateUrl !== '' && !/^https?:\/\//.test(translateUrl)) {
    throw new ConfigError(`TRANSLATE_URL must be an http(s) URL, got "${translateUrl}"`);
  }
  const config: ServerConfig = {
    port: intVar(env, 'PORT', 8080, 0, 65535),
    host: env['HOST']?.trim() || '127.0.0.1',
    dataDir,
    memoryDb: boolVar(env, 'MEMORY_DB', false),
    sqliteSynchronous: sqliteSynchronousVar(env),
    databaseUrl,
    redisUrl,
    filesDir: env['FILES_DIR']?.trim() ? resolve(env['FILES_DIR'].trim()) : '',
    nodeId: (env['NODE_ID']?.trim() || `${hostname()}:${process.pid}`).slice(0, 100),
    clusterName,
    aesSwitch: boolVar(env, 'AES_SWITCH', true),
    agents,
    routing: asConfigError(() => parseRoutingConfig(env)),
    demoAgent,
    loginThrottle: readLoginThrottle(env),
    rate: readRateLimits(env),
    upload: readUploadLimits(env),
    translateUrl,
    translateApiKey: env['TRANSLATE_API_KEY']?.trim() ?? '',
    publicUrl,
    appDir: resolve(env['APP_DIR']?.trim() || fileURLToPath(new URL('../../kefu/dist', import.meta.url))),
    keySessionTtlMs: intVar(env, 'KEY_SESSION_TTL_MS', 24 * 3_600_000, 1_000, 365 * 86_400_000),
    keySessionUnboundTtlMs: intVar(env, 'KEY_SESSION_UNBOUND_TTL_MS', 10 * 60_000, 1_000, 365 * 86_400_000),
    socketIdleMs: intVar(env, 'SOCKET_IDLE_MS', 90_000, 1_000, 86_400_000),
    seed: boolVar(env, 'SEED', true),
    log: boolVar(env, 'LOG', false),
    abuse: readAbuseLimits(env),
    agentSessions: readAgentSessions(env),
    frameAncestors: parseFrameAncestors(env['FRAME_ANCESTORS'] ?? ''),
    trustProxy: parseTrustProxy(env['TRUST_PROXY'] ?? ''),
    sneakPeekMerchants: parseSneakPeekMerchants(env['SNEAK_PEEK_MERCHANTS'] ?? ''),
    merchantHours: readMerchantHours(env),
    privacy: asConfigError(() => parsePrivacyConfig(env)),
    identity: asConfigError(() => parseIdentityConfig(env, isLoopbackHost(env['HOST']?.trim() || '127.0.0.1'))),
  };
  const merged = { ...config, ...overrides };
  // the public demo secret never works off loopback, whatever the overrides say
  if (merged.identity.demoMerchantSecret && !isLoopbackHost(merged.host)) merged.identity = { ...merged.identity, demoMerchantSecret: false };
  return merged;
}
