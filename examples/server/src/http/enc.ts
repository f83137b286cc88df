/**
 * Key sessions on HTTP (`X-Salt-Key`) and the (enc) payload decoding of protocol §2.
 * @module
 */

import type { FastifyRequest } from 'fastify';
import { aesEcbDecrypt } from '../crypto.js';
import type { Identity } from '../services/identity.js';
import type { KeySession } from '../store/types.js';
import { ApiError, Code } from './envelope.js';
import { asPayload, type Payload } from './validate.js';

/** The `X-Salt-Key` header value, or ''. */
export function saltKeyOf(request: FastifyRequest): string {
  const header = request.headers['x-salt-key'];
  const value = Array.isArray(header) ? header[0] : header;
  return typeof value === 'string' && value.length <= 200 ? value.trim() : '';
}

/**
 * The live key session named by `X-Salt-Key`.
 * @throws ApiError 1002 when missing, unknown or expired.
 */
export function requireSession(request: FastifyRequest, identity: Identity): Promise<KeySession> {
  return identity.requireLive(saltKeyOf(request));
}

/**
 * Decodes an (enc) value: URL-decoding (when still encoded), base64, AES-ECB under the user key,
 * JSON. Every failure is an {@link ApiError} 1001 with a clear message.
 */
export function decodeEnc(value: unknown, session: KeySession): Payload {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new ApiError(Code.BadRequest, 'Missing encrypted payload "data"');
  }
  let text = value.trim().replace(/ /g, '+');
  if (text.includes('%')) {
    try {
      text = decodeURIComponent(text);
    } catch {
      throw new ApiError(Code.BadRequest, 'The encrypted payload is not correctly URL-encoded');
    }
  }
  let json: string;
  try {
    json = aesEcbDecrypt(Buffer.from(session.token, 'utf8'), text);
  } catch {
    throw new ApiError(Code.BadRequest, 'The encrypted payload does not decrypt with this session\'s key');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new ApiError(Code.BadRequest, 'The decrypted payload is not JSON');
  }
  return asPayload(parsed);
}

/** The first language tag of `Accept-Language`, or 'zh'. */
export function languageOf(request: FastifyRequest): string {
  const header = request.headers['accept-language'];
  const first = (typeof header === 'string' ? header : '').split(',')[0]?.split(';')[0]?.trim() ?? '';
  return /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(first) ? first : 'zh';
}
