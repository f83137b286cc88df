/**
 * The merchants' part of the configuration: who gets the sneak peek (`SNEAK_PEEK_MERCHANTS`) and
 * business hours (`MERCHANT_HOURS`, `MERCHANT_HOURS_FILE`).
 * @module
 */

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseHoursByMerchant, type BusinessHours } from './services/business-hours.js';
import { asConfigError, ConfigError, type EnvLike } from './env-vars.js';

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

/**
 * The hours of `MERCHANT_HOURS`, or of the file named by `MERCHANT_HOURS_FILE` (see {@link parseHoursByMerchant}).
 * @internal
 */
export function readMerchantHours(env: EnvLike): Record<string, BusinessHours> {
  const file = env['MERCHANT_HOURS_FILE']?.trim() ?? '';
  const source = file === '' ? 'MERCHANT_HOURS' : `MERCHANT_HOURS_FILE ${file}`;
  let text = env['MERCHANT_HOURS'] ?? '';
  try {
    if (file !== '') text = readFileSync(resolve(file), 'utf8');
  } catch (error) {
    throw new ConfigError(`MERCHANT_HOURS_FILE "${file}" cannot be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  return asConfigError(() => parseHoursByMerchant(text, source));
}
