/**
 * The web-facing part of the configuration: whether the server listens on loopback only, the
 * reverse proxies it trusts (`TRUST_PROXY`) and who may frame its visitor pages (`FRAME_ANCESTORS`).
 * @module
 */

import { isIP } from 'node:net';
import { ConfigError } from './env-vars.js';

/** Whether `host` is a loopback interface (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h) || h === '::ffff:127.0.0.1';
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
