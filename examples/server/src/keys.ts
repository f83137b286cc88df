/**
 * The server's long-lived secrets: an RSA 1024-bit key pair for the connect check (protocol §3)
 * and the HMAC secret. Generated on first start and kept in `DATA_DIR/keys.json` (mode 0600).
 * @module
 */

import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The server's secrets. */
export interface ServerKeys {
  /** RSA public key: base64 DER SubjectPublicKeyInfo (a PEM body without header lines). */
  publicKey: string;
  /** RSA private key, PKCS#1 PEM. */
  privateKeyPem: string;
  /** HMAC-SHA256 key for the connect signature. */
  secret: string;
}

/** The SDK option `socketKey`: `"<publicKey>,<secret>"` (protocol §3). */
export function socketKeyOf(keys: ServerKeys): string {
  return `${keys.publicKey},${keys.secret}`;
}

/** Generates a fresh key set. */
export function generateKeys(): ServerKeys {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 1024,
    publicExponent: 0x10001,
  });
  return {
    publicKey: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
    privateKeyPem: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
    secret: randomBytes(24).toString('base64url'),
  };
}

/** Whether `value` is a complete key set. */
export function isServerKeys(value: unknown): value is ServerKeys {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v['publicKey'] === 'string' &&
    typeof v['privateKeyPem'] === 'string' &&
    typeof v['secret'] === 'string' &&
    v['publicKey'] !== '' &&
    v['secret'] !== '' &&
    !String(v['secret']).includes(',')
  );
}

/**
 * Loads `keys.json` from `dataDir`, or generates and writes it on first start.
 * @throws Error when the file exists but is not a valid key set (it is never overwritten).
 */
export function loadOrCreateKeys(dataDir: string): ServerKeys {
  const file = join(dataDir, 'keys.json');
  if (existsSync(file)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      throw new Error(`${file} is not valid JSON; move it away to generate new keys`);
    }
    if (!isServerKeys(parsed)) throw new Error(`${file} does not hold publicKey, privateKeyPem and secret`);
    return { publicKey: parsed.publicKey, privateKeyPem: parsed.privateKeyPem, secret: parsed.secret };
  }
  mkdirSync(dataDir, { recursive: true });
  const keys = generateKeys();
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify({ ...keys, createdAt: new Date().toISOString() }, null, 2)}\n`, {
    mode: 0o600,
  });
  renameSync(tmp, file);
  return keys;
}
