/**
 * Merchant secrets (protocol §3b): the HMAC keys that merchants sign their identity tokens with.
 * They come from `MERCHANT_SECRETS=M1001:<secret>,M1002:<secret>` (a merchant named twice has two
 * valid secrets, for a rotation), from the admin command (`merchant secret add`), kept in the store
 * sealed with AES-256-GCM under the sealing key, and, on loopback with no `MERCHANT_SECRETS`, the
 * public demo secret of the demo merchant. They are never sent to any client.
 *
 * The sealing key is `MERCHANT_SECRETS_KEY` (32 bytes as 64 hex digits or base64) when set, else
 * derived with HKDF-SHA256 from the server's RSA private key (`keys.json` on SQLite, the database's
 * meta row on PostgreSQL: there, set `MERCHANT_SECRETS_KEY` so that the key is not kept beside
 * what it seals). A sealed value names its key (`v1.<key id>.<GCM>`), so a wrong key is a clear
 * error, not a garbled secret.
 * @module
 */

import { createHash, hkdfSync, randomBytes } from 'node:crypto';
import { gcmDecrypt, gcmEncrypt } from '../crypto.js';

/** The shortest merchant secret accepted (characters): 256 bits of HMAC key at least. */
export const MIN_MERCHANT_SECRET_CHARS = 32;
/** The longest merchant secret accepted (characters). */
export const MAX_MERCHANT_SECRET_CHARS = 512;
/** A merchant id as secrets name it. */
const MERCHANT_ID = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * The demo merchant's secret, used on loopback when `MERCHANT_SECRETS` is unset (like the demo
 * agent's password, public knowledge: the start-up output prints it with a demo link).
 */
export const DEMO_MERCHANT_SECRET = 'kefu-demo-merchant-secret-M1001-loopback-only';

/** One secret of one merchant. */
export interface MerchantSecret {
  /** The merchant. */
  mchId: string;
  /** The secret (UTF-8 text). */
  secret: string;
}

/** Raised for an unusable `MERCHANT_SECRETS` or `MERCHANT_SECRETS_KEY` (the caller makes it a ConfigError). */
export class MerchantSecretsError extends Error {
  override name = 'MerchantSecretsError';
}

/**
 * Checks one secret's text.
 * @throws MerchantSecretsError when it is too short, too long, or holds a comma or white space.
 */
export function checkMerchantSecret(secret: string): string {
  if (secret.length < MIN_MERCHANT_SECRET_CHARS || secret.length > MAX_MERCHANT_SECRET_CHARS || /[\s,]/.test(secret)) {
    throw new MerchantSecretsError(
      `a merchant secret is ${MIN_MERCHANT_SECRET_CHARS}-${MAX_MERCHANT_SECRET_CHARS} characters without spaces or commas (got ${secret.length})`,
    );
  }
  return secret;
}

/** Checks a merchant id. @throws MerchantSecretsError when it is not one */
export function checkMerchantId(mchId: string): string {
  if (!MERCHANT_ID.test(mchId)) throw new MerchantSecretsError(`"${mchId.slice(0, 70)}" is not a merchant id (1-64 letters, digits, _ . -)`);
  return mchId;
}

/**
 * Parses `MERCHANT_SECRETS` (`M1001:<secret>,M1002:<secret>`; a merchant named twice has two).
 * @throws MerchantSecretsError naming the entry that is wrong (never its secret).
 */
export function parseMerchantSecrets(raw: string | undefined): MerchantSecret[] {
  const value = (raw ?? '').trim();
  if (value === '') return [];
  return value.split(',').map((entry, i) => {
    const colon = entry.indexOf(':');
    if (colon <= 0) throw new MerchantSecretsError(`MERCHANT_SECRETS entry ${i + 1} is not <mchId>:<secret>`);
    const mchId = checkMerchantId(entry.slice(0, colon).trim());
    try {
      return { mchId, secret: checkMerchantSecret(entry.slice(colon + 1).trim()) };
    } catch (error) {
      throw new MerchantSecretsError(`MERCHANT_SECRETS entry ${i + 1} (${mchId}): ${(error as Error).message}`);
    }
  });
}

/** A fresh merchant secret: 32 secure random bytes as base64url (43 characters). */
export function newMerchantSecret(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The sealing key: `MERCHANT_SECRETS_KEY` (64 hex digits or base64 of 32 bytes) when given, else
 * HKDF-SHA256 of the server's RSA private key.
 * @throws MerchantSecretsError when `MERCHANT_SECRETS_KEY` is not 32 bytes.
 */
export function sealingKeyOf(configured: string | undefined, privateKeyPem: string): Buffer {
  const value = (configured ?? '').trim();
  if (value !== '') {
    const key = /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
    if (key.length !== 32) throw new MerchantSecretsError('MERCHANT_SECRETS_KEY must be 32 bytes: 64 hex digits or base64');
    return key;
  }
  return Buffer.from(hkdfSync('sha256', privateKeyPem, 'kefu-im', 'merchant-secrets/1', 32));
}

/** The short public id of a sealing key (the first 8 hex digits of SHA-256 of a derived value). */
function keyId(key: Buffer): string {
  return createHash('sha256').update('kefu-im sealing key id').update(key).digest('hex').slice(0, 8);
}

/** Seals a secret for the store: `v1.<key id>.<base64(nonce || ciphertext || tag)>`. */
export function sealSecret(key: Buffer, secret: string): string {
  return `v1.${keyId(key)}.${gcmEncrypt(key, secret)}`;
}

/**
 * Opens a sealed secret.
 * @throws MerchantSecretsError when it was sealed under another key, or does not decrypt.
 */
export function unsealSecret(key: Buffer, sealed: string): string {
  const [version, id, body] = sealed.split('.');
  if (version !== 'v1' || body === undefined) throw new MerchantSecretsError('not a sealed merchant secret');
  if (id !== keyId(key)) throw new MerchantSecretsError('sealed under another key (MERCHANT_SECRETS_KEY or the server keys changed)');
  try {
    return gcmDecrypt(key, body);
  } catch {
    throw new MerchantSecretsError('a sealed merchant secret does not decrypt');
  }
}
