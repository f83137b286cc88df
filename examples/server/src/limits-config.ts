/**
 * The limits part of the configuration: agent login throttling, rate limits, upload limits and
 * the abuse limits (SECURITY.md lists them with their defaults), each with its reader.
 * @module
 */

import { intVar, type EnvLike } from './env-vars.js';

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

/**
 * Agent login throttling (`AGENT_LOGIN_*`, `AGENT_LOCKOUT_*`).
 * @internal
 */
export function readLoginThrottle(env: EnvLike): LoginThrottleConfig {
  return {
    freeFailures: intVar(env, 'AGENT_LOGIN_FREE_FAILURES', 3, 0, 1000),
    baseDelayMs: intVar(env, 'AGENT_LOGIN_DELAY_MS', 500, 0, 3_600_000),
    maxDelayMs: intVar(env, 'AGENT_LOGIN_MAX_DELAY_MS', 30_000, 0, 86_400_000),
    lockoutAfter: intVar(env, 'AGENT_LOCKOUT_FAILURES', 10, 1, 1_000_000),
    lockoutMs: intVar(env, 'AGENT_LOCKOUT_MS', 15 * 60_000, 0, 7 * 86_400_000),
    concurrencyPerAddress: intVar(env, 'AGENT_LOGIN_CONCURRENCY', 16, 1, 1_000_000),
  };
}

/**
 * Rate limits (`RATE_HTTP_*`, `RATE_SOCKET_*`).
 * @internal
 */
export function readRateLimits(env: EnvLike): RateLimits {
  return {
    httpMax: intVar(env, 'RATE_HTTP_MAX', 300, 1, 1_000_000),
    httpWindowMs: intVar(env, 'RATE_HTTP_WINDOW_MS', 60_000, 100, 86_400_000),
    socketMax: intVar(env, 'RATE_SOCKET_MAX', 10, 1, 1_000_000),
    socketWindowMs: intVar(env, 'RATE_SOCKET_WINDOW_MS', 5_000, 100, 86_400_000),
  };
}

/**
 * Upload limits (`UPLOAD_MAX_BYTES`, `UPLOAD_QUOTA_BYTES_PER_DAY`, `UPLOAD_ALLOWED_MIME`).
 * @internal
 */
export function readUploadLimits(env: EnvLike): UploadLimits {
  const mimeRaw = env['UPLOAD_ALLOWED_MIME']?.trim() ?? '';
  return {
    maxBytes: intVar(env, 'UPLOAD_MAX_BYTES', 50 * 1024 * 1024, 1, 4 * 1024 * 1024 * 1024),
    quotaBytesPerDay: intVar(env, 'UPLOAD_QUOTA_BYTES_PER_DAY', 200 * 1024 * 1024, 1, Number.MAX_SAFE_INTEGER),
    allowedMime:
      mimeRaw === ''
        ? [...DEFAULT_MIME]
        : mimeRaw
            .split(',')
            .map((m) => m.trim().toLowerCase())
            .filter((m) => m !== ''),
  };
}

/**
 * Abuse limits (`RATE_KEY_SESSIONS_*`, `RATE_CONNECTS_*`, `MAX_SOCKETS_PER_IDENTITY`, `QUEUE_UPDATE_MS`).
 * @internal
 */
export function readAbuseLimits(env: EnvLike): AbuseLimits {
  return {
    keySessionsMax: intVar(env, 'RATE_KEY_SESSIONS_MAX', 60, 1, 1_000_000),
    keySessionsWindowMs: intVar(env, 'RATE_KEY_SESSIONS_WINDOW_MS', 60_000, 100, 86_400_000),
    connectsMax: intVar(env, 'RATE_CONNECTS_MAX', 60, 1, 1_000_000),
    connectsWindowMs: intVar(env, 'RATE_CONNECTS_WINDOW_MS', 60_000, 100, 86_400_000),
    socketsPerIdentity: intVar(env, 'MAX_SOCKETS_PER_IDENTITY', 5, 1, 10_000),
    queueUpdateMs: intVar(env, 'QUEUE_UPDATE_MS', 1_000, 0, 60_000),
  };
}
