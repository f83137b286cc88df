/**
 * `POST /translate/google/translate` (docs/protocol.md §4): forwards to a LibreTranslate-compatible
 * service (`TRANSLATE_URL`); without one it answers code 2004 "not configured".
 * @module
 */

import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../config.js';
import { ApiError, Code, ok } from './envelope.js';
import { asPayload, optStr, reqStr } from './validate.js';

/** The translate timeout of spec §9. */
export const TRANSLATE_TIMEOUT_MS = 90_000;

/**
 * A client locale (`en-US`, `zh-Hant`) as a LibreTranslate language code (`en`, `zt`).
 * @internal
 */
export function libreLanguage(locale: string): string {
  const lower = locale.trim().toLowerCase();
  if (lower === '' || lower === 'auto') return 'auto';
  if (lower === 'zh-hant' || lower === 'zh-tw' || lower === 'zh-hk') return 'zt';
  return lower.split(/[-_]/)[0] ?? lower;
}

/** Registers the translate route. */
export function registerTranslateRoute(app: FastifyInstance, config: ServerConfig, fetchImpl: typeof fetch = fetch): void {
  app.post('/translate/google/translate', async (request) => {
    const p = asPayload(request.body, 'body');
    const text = reqStr(p, 'text', 5000);
    const target = optStr(p, 'target', 16) || 'en-US';
    const source = optStr(p, 'source', 16) || 'auto';
    if (config.translateUrl === '') {
      throw new ApiError(Code.Translate, 'Translation is not configured on this server (set TRANSLATE_URL)');
    }
    let response: Response;
    try {
      response = await fetchImpl(`${config.translateUrl}/translate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          q: text,
          source: libreLanguage(source),
          target: libreLanguage(target),
          format: 'text',
          ...(config.translateApiKey ? { api_key: config.translateApiKey } : {}),
        }),
        signal: AbortSignal.timeout(TRANSLATE_TIMEOUT_MS),
      });
    } catch {
      throw new ApiError(Code.Translate, 'Translation failed: the translation service did not answer');
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      body = undefined;
    }
    const translated = (body as { translatedText?: unknown } | undefined)?.translatedText;
    if (!response.ok || typeof translated !== 'string') {
      const reason = (body as { error?: unknown } | undefined)?.error;
      throw new ApiError(Code.Translate, `Translation failed${typeof reason === 'string' ? `: ${reason}` : ` (HTTP ${response.status})`}`);
    }
    const detected = (body as { detectedLanguage?: { language?: unknown } }).detectedLanguage?.language;
    return ok({ text: translated, source: typeof detected === 'string' ? detected : source, target });
  });
}
