/**
 * Privacy settings read from the environment: the admin API's token (`ADMIN_TOKEN`, kept only as
 * its SHA-256; without it the admin API is off) and its rate limit (`ADMIN_RATE_MAX` per
 * `ADMIN_RATE_WINDOW_MS`), and retention (`RETENTION_DAYS`, 0 = keep everything, checked every
 * `RETENTION_INTERVAL_MS`; `retention set` of the admin command wins over `RETENTION_DAYS`).
 * @module
 */

import { hashSecret, newClientSecret } from './identity/secrets.js';

/** Visitor privacy: the admin API and retention. */
export interface PrivacyConfig {
  /** Lowercase hex SHA-256 of `ADMIN_TOKEN`; empty when the admin API is off. */
  adminTokenHash: string;
  /** Admin API calls per client address and window (`ADMIN_RATE_MAX`, default 30); over it HTTP 413. */
  adminRateMax: number;
  /** The window of {@link PrivacyConfig.adminRateMax} in ms (`ADMIN_RATE_WINDOW_MS`, default 60 s). */
  adminRateWindowMs: number;
  /** `RETENTION_DAYS`: conversations and files older than this many days are deleted; 0 keeps everything. */
  retentionDays: number;
  /** `RETENTION_INTERVAL_MS`: how often (and in which periods) retention runs, once per period in a cluster (default 1 h). */
  retentionIntervalMs: number;
}

/** The longest retention accepted (days). */
export const MAX_RETENTION_DAYS = 36_500;

/** The shortest plain `ADMIN_TOKEN` accepted (characters). */
export const MIN_ADMIN_TOKEN_LENGTH = 32;

/** The prefix of an `ADMIN_TOKEN` given as its hash: `sha256:<64 hex>`. */
const HASHED = /^sha256:([0-9a-fA-F]{64})$/;

/** Raised for an unusable privacy variable (the caller turns it into its ConfigError). */
export class PrivacyConfigError extends Error {
  override name = 'PrivacyConfigError';
}

/** A new admin token (43 characters, 256 random bits) and the `ADMIN_TOKEN` value that keeps only its hash. */
export function newAdminToken(): { token: string; hashed: string } {
  const token = newClientSecret();
  return { token, hashed: `sha256:${hashSecret(token)}` };
}

/**
 * The stored hash of `ADMIN_TOKEN`: a plain token (at least {@link MIN_ADMIN_TOKEN_LENGTH}
 * characters, hashed here and never kept) or `sha256:<hex>` (its hash, as `admin-token` of the
 * admin command prints it); empty when unset.
 * @throws PrivacyConfigError for a short token
 */
export function adminTokenHashOf(raw: string | undefined): string {
  const value = (raw ?? '').trim();
  if (value === '') return '';
  const hashed = HASHED.exec(value);
  if (hashed) return (hashed[1] ?? '').toLowerCase();
  if (value.startsWith('sha256:')) throw new PrivacyConfigError('ADMIN_TOKEN "sha256:..." must hold 64 hex digits');
  if (value.length < MIN_ADMIN_TOKEN_LENGTH || value.length > 256 || /\s/.test(value)) {
    throw new PrivacyConfigError(
      `ADMIN_TOKEN must be ${MIN_ADMIN_TOKEN_LENGTH}-256 characters without spaces (got ${value.length}); ` +
        '"npm run admin -w @kefu-im/server -- admin-token" prints a random one',
    );
  }
  return hashSecret(value);
}

function integer(env: Readonly<Record<string, string | undefined>>, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) throw new PrivacyConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  return value;
}

/**
 * Reads the privacy settings.
 * @throws PrivacyConfigError for a bad value
 */
export function parsePrivacyConfig(env: Readonly<Record<string, string | undefined>>): PrivacyConfig {
  return {
    adminTokenHash: adminTokenHashOf(env['ADMIN_TOKEN']),
    adminRateMax: integer(env, 'ADMIN_RATE_MAX', 30, 1, 1_000_000),
    adminRateWindowMs: integer(env, 'ADMIN_RATE_WINDOW_MS', 60_000, 100, 86_400_000),
    retentionDays: integer(env, 'RETENTION_DAYS', 0, 0, MAX_RETENTION_DAYS),
    retentionIntervalMs: integer(env, 'RETENTION_INTERVAL_MS', 3_600_000, 1_000, 7 * 86_400_000),
  };
}
