/**
 * Verified-identity settings read from the environment (protocol §3b): `MERCHANT_SECRETS` (the
 * merchants' token secrets, see `identity/merchant-secrets.ts`), `MERCHANT_SECRETS_KEY` (the key
 * that seals secrets added with the admin command; derived from the server keys when unset) and
 * whether the demo merchant gets the public demo secret (on loopback, when `MERCHANT_SECRETS` is unset).
 * @module
 */

import { parseMerchantSecrets, sealingKeyOf, type MerchantSecret } from './identity/merchant-secrets.js';

/** Verified identity. */
export interface IdentityConfig {
  /** `MERCHANT_SECRETS`: secrets by merchant (a merchant may have several, for a rotation). */
  merchantSecrets: readonly MerchantSecret[];
  /** `MERCHANT_SECRETS_KEY` as given (checked), or empty: the sealing key is then derived from the server keys. */
  sealingKey: string;
  /** Whether the demo merchant's public demo secret is valid (loopback and no `MERCHANT_SECRETS`). */
  demoMerchantSecret: boolean;
}

/**
 * Reads the identity settings.
 * @param loopback - whether the server listens on loopback only.
 * @throws MerchantSecretsError for an unusable variable (never quoting a secret).
 */
export function parseIdentityConfig(env: Readonly<Record<string, string | undefined>>, loopback: boolean): IdentityConfig {
  const merchantSecrets = parseMerchantSecrets(env['MERCHANT_SECRETS']);
  const sealingKey = (env['MERCHANT_SECRETS_KEY'] ?? '').trim();
  if (sealingKey !== '') sealingKeyOf(sealingKey, ''); // checks its length
  return { merchantSecrets, sealingKey, demoMerchantSecret: loopback && merchantSecrets.length === 0 };
}
