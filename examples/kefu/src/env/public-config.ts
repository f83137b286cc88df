/**
 * The server's public configuration (docs/protocol.md §2): what the app needs to build an
 * `ImClient`. Read from `GET /im/api/public/config` on the page's own origin, unless the build sets
 * `VITE_KEFU_SERVER` to another host.
 * @module
 */
import type { PublicConfig } from '@kefu-im/sdk';

/** The server the app talks to: `VITE_KEFU_SERVER`, else the page's origin. */
export function serverOrigin(pageOrigin: string): string {
  const configured: unknown = import.meta.env['VITE_KEFU_SERVER'];
  return typeof configured === 'string' && configured.trim() !== '' ? configured.trim().replace(/\/+$/, '') : pageOrigin;
}

/** Why the configuration could not be read. */
export class ConfigLoadError extends Error {
  override name = 'ConfigLoadError';
}

function isConfig(value: unknown): value is PublicConfig {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v['baseUrl'] === 'string' && typeof v['socketUrl'] === 'string' && typeof v['socketKey'] === 'string';
}

/**
 * Fetches the public configuration.
 * @param origin - the server's host root
 * @param fetchFn - the fetch to use (tests)
 * @throws ConfigLoadError when the server cannot be reached or answers something else
 */
export async function loadPublicConfig(origin: string, fetchFn: typeof fetch = fetch): Promise<PublicConfig> {
  let body: unknown;
  try {
    const response = await fetchFn(`${origin}/im/api/public/config`, { headers: { accept: 'application/json' } });
    body = await response.json();
  } catch (cause) {
    throw new ConfigLoadError(`Cannot reach the chat server at ${origin}`, { cause });
  }
  const envelope = body as { code?: unknown; data?: unknown } | null;
  if (!envelope || envelope.code !== 0 || !isConfig(envelope.data)) {
    throw new ConfigLoadError(`The chat server at ${origin} sent no usable configuration`);
  }
  return envelope.data;
}

/**
 * Whether the server has a translation provider (the reference server's `translate` flag of the
 * public configuration; absent means no).
 * @param config - the public configuration
 */
export function translationAvailable(config: PublicConfig): boolean {
  return (config as PublicConfig & { translate?: unknown }).translate === true;
}
