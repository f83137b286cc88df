/**
 * Server configuration: environment variables with sensible defaults.
 * @module
 */

import { hostname } from 'node:os';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { parseRoutingConfig, type RoutingConfig } from './routing-config.js';
import { hashPassword, isPasswordHash } from './agents/password.js';
import { DEFAULT_AGENT_MERCHANT, parseAgentMerchants, type AgentMerchantsConfig } from './agents/merchants.js';
import { parseHoursByMerchant, type BusinessHours } from './services/business-hours.js';
import { parsePrivacyConfig, type PrivacyConfig } from './privacy-config.js';
import { parseIdentityConfig, type IdentityConfig } from './identity-config.js';

/** One human agent account. */
export interface AgentAccount {
  /** Login name; the agent's user id is `agent:<account>`. */
  account: string;
  /** The scrypt hash of the password (`scrypt$N$r$p$salt$hash`, see `agents/password.ts`). */
  passwordHash: string;
  /** Display name. */
  name: string;
  /**
   * The merchants the agent works for (`AGENT_MERCHANTS`, the admin command; the demo merchant by
   * default): their queue, conversations, canned replies and past conversations, and no other's.
   */
  merchants: readonly string[];
}

/** Agent login throttling (protocol §3a.5). */
export interface LoginThrottleConfig {
  /** Failures (per account and per address) that cost no wait. */
  freeFailures: number;
  /** The first wait (ms) after the free failures; it doubles with each further failure. */
  baseDelayMs: number;
  /** The longest wait (ms). */
  maxDelayMs: number;
  /** Failures that lock the account (or address). */
  lockoutAfter: number;
  /** How long a lock lasts (ms). */
  lockoutMs: number;
  /** Password checks that may run at once for one address (one per account always). */
  concurrencyPerAddress: number;
}

/** Rate limits for HTTP calls and socket messages (per client). */
export interface RateLimits {
  /** HTTP calls allowed per client and window; over it the answer is HTTP 413. */
  httpMax: number;
  /** HTTP window in ms. */
  httpWindowMs: number;
  /**
   * Chat messages (types 100-103, 301) allowed per window, counted per identity and per key
   * session (`t`) alike; over either a type-500 `too-frequent`.
   */
  socketMax: number;
  /** Socket window in ms. */
  socketWindowMs: number;
}

/** Upload limits. */
export interface UploadLimits {
  /** Largest accepted file in bytes (single and chunked uploads). */
  maxBytes: number;
  /**
   * Accepted MIME types; an entry ending in `/*` accepts the whole family (`image/*`).
   */
  allowedMime: string[];
  /** Bytes one identity (visitor or agent) may upload per UTC day. */
  quotaBytesPerDay: number;
}

/**
 * Abuse limits (SECURITY.md lists them with their defaults). Each is a number of events per
 * window; going over it refuses the event and creates nothing.
 */
export interface AbuseLimits {
  /** New key sessions (getAesKey / getUserToken with a new request key) per address and window; over it HTTP 413. */
  keySessionsMax: number;
  /** Window of {@link AbuseLimits.keySessionsMax} in ms. */
  keySessionsWindowMs: number;
  /** Socket connects (upgrade requests) per address and window; over it HTTP 413 before the upgrade. */
  connectsMax: number;
  /** Window of {@link AbuseLimits.connectsMax} in ms. */
  connectsWindowMs: number;
  /** Open sockets per identity (visitor client id or agent); the next connect is closed with 4005. */
  socketsPerIdentity: number;
  /** Queue position updates (`queued` events) go to each visitor at most once per this many ms. */
  queueUpdateMs: number;
}

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

/** Agent desk sessions. */
export interface AgentSessionConfig {
  /**
   * A session token (given in an agent's welcome, kept by the desk instead of the password) expires
   * this long after its last use (`AGENT_SESSION_TTL_MS`, default 12 h).
   */
  tokenTtlMs: number;
  /**
   * An agent whose last socket closed is given this long to come back (`AGENT_GRACE_MS`, default
   * 60 s) before its visitors are told it left and may queue for another agent.
   */
  graceMs: number;
}

/** The environment-variable names read by {@link loadConfig}. */
export type EnvLike = Readonly<Record<string, string | undefined>>;

const DEFAULT_MIME = [
  'image/*',
  'video/mp4',
  'video/webm',
  'video/quicktime',
  'audio/mpeg',
  'application/pdf',
  'application/zip',
  'text/plain',
];

/** Raised when an environment variable holds a value that cannot be used. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

function privacyConfig(env: EnvLike): PrivacyConfig {
  try {
    return parsePrivacyConfig(env);
  } catch (error) {
    throw new ConfigError(error instanceof Error ? error.message : String(error));
  }
}

function identityConfig(env: EnvLike, host: string): IdentityConfig {
  try {
    return parseIdentityConfig(env, isLoopbackHost(host));
  } catch (error) {
    throw new ConfigError(error instanceof Error ? error.message : String(error));
  }
}

function routingConfig(env: EnvLike): RoutingConfig {
  try {
    return parseRoutingConfig(env);
  } catch (error) {
    throw new ConfigError(error instanceof Error ? error.message : String(error));
  }
}

function intVar(env: EnvLike, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  }
  return value;
}

function sqliteSynchronousVar(env: EnvLike): 'full' | 'normal' {
  const raw = env['SQLITE_SYNCHRONOUS']?.trim().toLowerCase();
  if (raw === undefined || raw === '' || raw === 'full') return 'full';
  if (raw === 'normal') return 'normal';
  throw new ConfigError(`SQLITE_SYNCHRONOUS must be full or normal, got "${env['SQLITE_SYNCHRONOUS'] ?? ''}"`);
}

function boolVar(env: EnvLike, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${env[name] ?? ''}"`);
}

/**
 * Parses `AGENTS`: comma-separated `account:password[:Display name]` entries, where `password`
 * is either the plain password (hashed here, at load) or a stored hash `scrypt$N$r$p$salt$hash`
 * (as printed by `npm run admin -- hash`).
 * @internal
 */
export function parseAgents(raw: string): AgentAccount[] {
  const agents: AgentAccount[] = [];
  for (const entry of raw.split(',')) {
    const trimmed = entry.trim();
    if (trimmed === '') continue;
    const [account = '', password = '', ...rest] = trimmed.split(':');
    if (!/^[A-Za-z0-9_.-]{1,32}$/.test(account) || password === '') {
      throw new ConfigError(
        `AGENTS entries are "account:password[:name]" (account of letters, digits, _ . -), got "${trimmed}"`,
      );
    }
    if (agents.some((a) => a.account === account)) {
      throw new ConfigError(`AGENTS names the account "${account}" twice`);
    }
    if (password.startsWith('scrypt$') && !isPasswordHash(password)) {
      throw new ConfigError(`AGENTS entry "${account}": "${password.slice(0, 12)}..." is not a valid scrypt$N$r$p$salt$hash`);
    }
    const passwordHash = isPasswordHash(password) ? password : hashPassword(password);
    agents.push({ account, passwordHash, name: rest.join(':').trim() || account, merchants: [DEFAULT_AGENT_MERCHANT] });
  }
  return agents;
}

/**
 * Parses `FRAME_ANCESTORS`: space- or comma-separated CSP sources (`https://shop.example`,
 * `https://*.shop.example`, `http://127.0.0.1:*`, `'self'`, `'none'`); empty means `'self'`.
 * @internal
 */
export function parseFrameAncestors(raw: string): string[] {
  const sources = raw.split(/[\s,]+/).filter((s) => s !== '');
  if (sources.length === 0) return ["'self'"];
  for (const source of sources) {
    const keyword = source === "'self'" || source === "'none'";
    const origin = /^https?:\/\/(\*\.)?[A-Za-z0-9.-]+(:(\d{1,5}|\*))?$/.test(source);
    if (!keyword && !origin) {
      throw new ConfigError(`FRAME_ANCESTORS entries are origins like https://shop.example (or 'self'), got "${source}"`);
    }
  }
  if (sources.includes("'none'") && sources.length > 1) throw new ConfigError("FRAME_ANCESTORS: 'none' cannot be combined with other sources");
  return sources;
}

/**
 * Parses `TRUST_PROXY`: comma-separated IP addresses of trusted reverse proxies; `loopback`
 * stands for `127.0.0.1,::1`.
 * @internal
 */
export function parseTrustProxy(raw: string): string[] {
  const out: string[] = [];
  for (const entry of raw.split(',').map((e) => e.trim()).filter((e) => e !== '')) {
    if (entry === 'loopback') out.push('127.0.0.1', '::1');
    else if (isIP(entry) !== 0) out.push(entry);
    else throw new ConfigError(`TRUST_PROXY entries are IP addresses (or "loopback"), got "${entry}"`);
  }
  return out;
}

/**
 * Parses `SNEAK_PEEK_MERCHANTS`: comma-separated merchant ids, or `*` for every merchant.
 * @internal
 */
export function parseSneakPeekMerchants(raw: string): string[] {
  const ids = raw.split(',').map((e) => e.trim()).filter((e) => e !== '');
  for (const id of ids) {
    if (id !== '*' && !/^[A-Za-z0-9_.:-]{1,100}$/.test(id)) throw new ConfigError(`SNEAK_PEEK_MERCHANTS entries are merchant ids (or *), got "${id}"`);
  }
  return ids;
}

/** The hours of `MERCHANT_HOURS`, or of the file named by `MERCHANT_HOURS_FILE` (see {@link parseHoursByMerchant}). */
function merchantHoursOf(env: EnvLike): Record<string, BusinessHours> {
  const file = env['MERCHANT_HOURS_FILE']?.trim() ?? '';
  const source = file === '' ? 'MERCHANT_HOURS' : `MERCHANT_HOURS_FILE ${file}`;
  let text = env['MERCHANT_HOURS'] ?? '';
  try {
    if (file !== '') text = readFileSync(resolve(file), 'utf8');
  } catch (error) {
    throw new ConfigError(`MERCHANT_HOURS_FILE "${file}" cannot be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    return parseHoursByMerchant(text, source);
  } catch (error) {
    throw new ConfigError(error instanceof Error ? error.message : String(error));
  }
}

/** `AGENT_MERCHANTS` (see `agents/merchants.ts`). */
function agentMerchantsOf(env: EnvLike): AgentMerchantsConfig {
  try {
    return parseAgentMerchants(env['AGENT_MERCHANTS'] ?? '');
  } catch (error) {
    throw new ConfigError(error instanceof Error ? error.message : String(error));
  }
}

/**
 * The accounts with their merchants from `AGENT_MERCHANTS`.
 * @throws ConfigError when it names an account that `AGENTS` does not (stored agents get theirs from the admin command)
 */
function withMerchants(agents: readonly AgentAccount[], config: AgentMerchantsConfig): AgentAccount[] {
  const unknown = Object.keys(config.byAccount).find((account) => !agents.some((a) => a.account === account));
  if (unknown !== undefined) {
    throw new ConfigError(`AGENT_MERCHANTS names "${unknown}", which AGENTS does not (set a stored agent's merchants with "agent merchants <account> <mchId>")`);
  }
  return agents.map((a) => ({ ...a, merchants: config.byAccount[a.account] ?? config.fallback }));
}

/** The built-in demo agent's credentials, used only when no agent is configured and only on loopback. */
export const DEMO_CREDENTIALS = { account: 'demo', password: 'demo', name: 'Demo Agent' } as const;

let demoAgent: AgentAccount | undefined;
/** The built-in demo agent (hashed on first use). */
export function demoAgentAccount(): AgentAccount {
  demoAgent ??= { account: DEMO_CREDENTIALS.account, name: DEMO_CREDENTIALS.name, passwordHash: hashPassword(DEMO_CREDENTIALS.password), merchants: [DEFAULT_AGENT_MERCHANT] };
  return demoAgent;
}

/** Whether `host` is a loopback interface (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h) || h === '::ffff:127.0.0.1';
}

/**
 * Refuses the demo account on anything but loopback: `demo:demo` is public knowledge.
 * @throws ConfigError when the configuration uses the demo agent on another interface.
 */
export function checkDemoAgent(config: Pick<ServerConfig, 'demoAgent' | 'host'>): void {
  if (config.demoAgent && !isLoopbackHost(config.host)) {
    throw new ConfigError(
      `the demo agent account (demo:demo) is only allowed when listening on loopback, but HOST is "${config.host}": ` +
        'set AGENTS (e.g. AGENTS=alice:<password>) or add an agent with "npm run admin -w @kefu-im/server -- agent add <account>"',
    );
  }
}

/**
 * Reads the configuration from environment variables (see the README for the list).
 * @param env - the environment, `process.env` by default.
 * @param overrides - values that win over the environment (tests).
 * @throws ConfigError when a variable holds an unusable value.
 */
export function loadConfig(env: EnvLike = process.env, overrides: Partial<ServerConfig> = {}): ServerConfig {
  const agentsRaw = env['AGENTS']?.trim() ?? '';
  const listed = agentsRaw === '' ? [demoAgentAccount()] : parseAgents(agentsRaw);
  if (listed.length === 0) throw new ConfigError('AGENTS names no account');
  const agents = withMerchants(listed, agentMerchantsOf(env));
  const mimeRaw = env['UPLOAD_ALLOWED_MIME']?.trim() ?? '';
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
    routing: routingConfig(env),
    demoAgent: agentsRaw === '',
    loginThrottle: {
      freeFailures: intVar(env, 'AGENT_LOGIN_FREE_FAILURES', 3, 0, 1000),
      baseDelayMs: intVar(env, 'AGENT_LOGIN_DELAY_MS', 500, 0, 3_600_000),
      maxDelayMs: intVar(env, 'AGENT_LOGIN_MAX_DELAY_MS', 30_000, 0, 86_400_000),
      lockoutAfter: intVar(env, 'AGENT_LOCKOUT_FAILURES', 10, 1, 1_000_000),
      lockoutMs: intVar(env, 'AGENT_LOCKOUT_MS', 15 * 60_000, 0, 7 * 86_400_000),
      concurrencyPerAddress: intVar(env, 'AGENT_LOGIN_CONCURRENCY', 16, 1, 1_000_000),
    },
    rate: {
      httpMax: intVar(env, 'RATE_HTTP_MAX', 300, 1, 1_000_000),
      httpWindowMs: intVar(env, 'RATE_HTTP_WINDOW_MS', 60_000, 100, 86_400_000),
      socketMax: intVar(env, 'RATE_SOCKET_MAX', 10, 1, 1_000_000),
      socketWindowMs: intVar(env, 'RATE_SOCKET_WINDOW_MS', 5_000, 100, 86_400_000),
    },
    upload: {
      maxBytes: intVar(env, 'UPLOAD_MAX_BYTES', 50 * 1024 * 1024, 1, 4 * 1024 * 1024 * 1024),
      quotaBytesPerDay: intVar(env, 'UPLOAD_QUOTA_BYTES_PER_DAY', 200 * 1024 * 1024, 1, Number.MAX_SAFE_INTEGER),
      allowedMime:
        mimeRaw === ''
          ? [...DEFAULT_MIME]
          : mimeRaw
              .split(',')
              .map((m) => m.trim().toLowerCase())
              .filter((m) => m !== ''),
    },
    translateUrl,
    translateApiKey: env['TRANSLATE_API_KEY']?.trim() ?? '',
    publicUrl,
    appDir: resolve(env['APP_DIR']?.trim() || fileURLToPath(new URL('../../kefu/dist', import.meta.url))),
    keySessionTtlMs: intVar(env, 'KEY_SESSION_TTL_MS', 24 * 3_600_000, 1_000, 365 * 86_400_000),
    socketIdleMs: intVar(env, 'SOCKET_IDLE_MS', 90_000, 1_000, 86_400_000),
    seed: boolVar(env, 'SEED', true),
    log: boolVar(env, 'LOG', false),
    abuse: {
      keySessionsMax: intVar(env, 'RATE_KEY_SESSIONS_MAX', 30, 1, 1_000_000),
      keySessionsWindowMs: intVar(env, 'RATE_KEY_SESSIONS_WINDOW_MS', 60_000, 100, 86_400_000),
      connectsMax: intVar(env, 'RATE_CONNECTS_MAX', 60, 1, 1_000_000),
      connectsWindowMs: intVar(env, 'RATE_CONNECTS_WINDOW_MS', 60_000, 100, 86_400_000),
      socketsPerIdentity: intVar(env, 'MAX_SOCKETS_PER_IDENTITY', 5, 1, 10_000),
      queueUpdateMs: intVar(env, 'QUEUE_UPDATE_MS', 1_000, 0, 60_000),
    },
    agentSessions: {
      tokenTtlMs: intVar(env, 'AGENT_SESSION_TTL_MS', 12 * 3_600_000, 60_000, 30 * 86_400_000),
      graceMs: intVar(env, 'AGENT_GRACE_MS', 60_000, 0, 86_400_000),
    },
    frameAncestors: parseFrameAncestors(env['FRAME_ANCESTORS'] ?? ''),
    trustProxy: parseTrustProxy(env['TRUST_PROXY'] ?? ''),
    sneakPeekMerchants: parseSneakPeekMerchants(env['SNEAK_PEEK_MERCHANTS'] ?? ''),
    merchantHours: merchantHoursOf(env),
    privacy: privacyConfig(env),
    identity: identityConfig(env, env['HOST']?.trim() || '127.0.0.1'),
  };
  const merged = { ...config, ...overrides };
  // the public demo secret never works off loopback, whatever the overrides say
  if (merged.identity.demoMerchantSecret && !isLoopbackHost(merged.host)) merged.identity = { ...merged.identity, demoMerchantSecret: false };
  return merged;
}
