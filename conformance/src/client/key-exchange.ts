/**
 * The start-up key exchange (protocol §1), step by step: each step names what went wrong.
 * @module
 */

import { randomBytes } from 'node:crypto';
import { unGcm } from './crypto.js';
import { http, type Envelope } from './http.js';

/** The result of the key exchange (protocol §1). */
export interface Session {
  /** The 32 hex characters drawn for this start-up. */
  requestKey: string;
  /** The AES key (32 bytes) unmasked from `getAesKey`. */
  aesKey: Buffer;
  /** The decrypted user token (32 ASCII characters). */
  token: string;
  /** The token's 32 UTF-8 bytes: the key of (enc) payloads and frames. */
  userKey: Buffer;
  /** The key session's name (`X-Salt-Key`, the connect's `t`). */
  saltKey: string;
  /** The AES switch: socket frames are AES-ECB under `userKey` when true. */
  aesSwitch: boolean;
}

const PERMIT = '/im/api/permit';

/** A fresh `requestKey`: 16 secure random bytes as 32 lowercase hex characters. */
export function newRequestKey(): string {
  return randomBytes(16).toString('hex');
}

function success<T>(step: string, status: number, body: Envelope<T>): T {
  if (body.code !== 0) throw new Error(`${step} answered code ${String(body.code)} (HTTP ${status}): ${String(body.message)}`);
  return body.data;
}

/**
 * `GET getServerTime`: the server's time in ms.
 * @param baseUrl - the host root
 * @throws Error when the answer is not a success carrying a finite number
 */
export async function fetchServerTime(baseUrl: string): Promise<number> {
  const { status, body } = await http<number>(`${baseUrl}${PERMIT}/getServerTime`);
  const time = success('getServerTime', status, body);
  if (typeof time !== 'number' || !Number.isFinite(time)) throw new Error(`getServerTime answered ${JSON.stringify(time)}, not a number of ms`);
  return time;
}

/**
 * `GET getAesKey?requestKey=R`, unmasked: each byte XORed with the byte of `R` at the same index
 * modulo 32.
 * @param baseUrl - the host root
 * @param requestKey - this start-up's request key
 * @throws Error `Invalid key length. Key must be 256 bits (32 bytes).` when the key is not 32 bytes
 */
export async function fetchAesKey(baseUrl: string, requestKey: string): Promise<Buffer> {
  const { status, body } = await http<string>(`${baseUrl}${PERMIT}/getAesKey?requestKey=${requestKey}`);
  const masked = success('getAesKey', status, body);
  if (typeof masked !== 'string') throw new Error(`getAesKey answered ${JSON.stringify(masked)}, not base64 text`);
  const bytes = Buffer.from(masked, 'base64');
  const aesKey = Buffer.alloc(bytes.length);
  for (let i = 0; i < bytes.length; i += 1) aesKey[i] = (bytes[i] ?? 0) ^ requestKey.charCodeAt(i % 32);
  if (aesKey.length !== 32) throw new Error('Invalid key length. Key must be 256 bits (32 bytes).');
  return aesKey;
}

/**
 * `GET getUserToken?requestKey=R`: the user token (decrypted with the AES key) and the salt key.
 * @param baseUrl - the host root
 * @param requestKey - this start-up's request key
 * @param aesKey - the key from {@link fetchAesKey}
 * @throws Error `Error decrypting text` when the token does not decrypt, or when it is not 32 ASCII characters
 */
export async function fetchUserToken(baseUrl: string, requestKey: string, aesKey: Buffer): Promise<{ token: string; saltKey: string }> {
  const { status, body } = await http<{ userToken?: unknown; saltKey?: unknown }>(`${baseUrl}${PERMIT}/getUserToken?requestKey=${requestKey}`);
  const data = success('getUserToken', status, body);
  if (typeof data?.userToken !== 'string' || typeof data.saltKey !== 'string' || data.saltKey === '') {
    throw new Error(`getUserToken answered ${JSON.stringify(data)}, not { userToken, saltKey }`);
  }
  let token: string;
  try {
    token = unGcm(aesKey, data.userToken);
  } catch {
    throw new Error('Error decrypting text');
  }
  if (!/^[\x00-\x7f]{32}$/.test(token)) throw new Error(`the user token is ${token.length} characters, not 32 ASCII characters`);
  return { token, saltKey: data.saltKey };
}

/**
 * `GET switchAES`: the AES switch.
 * @param baseUrl - the host root
 * @throws Error when the answer is not a boolean
 */
export async function fetchAesSwitch(baseUrl: string): Promise<boolean> {
  const { status, body } = await http<boolean>(`${baseUrl}${PERMIT}/switchAES`);
  const on = success('switchAES', status, body);
  if (typeof on !== 'boolean') throw new Error(`switchAES answered ${JSON.stringify(on)}, not a boolean`);
  return on;
}

/**
 * Runs the whole key exchange of protocol §1: a new key session.
 * @param baseUrl - the host root
 * @throws Error naming the step that failed
 */
export async function keyExchange(baseUrl: string): Promise<Session> {
  const requestKey = newRequestKey();
  await fetchServerTime(baseUrl);
  const aesKey = await fetchAesKey(baseUrl, requestKey);
  const { token, saltKey } = await fetchUserToken(baseUrl, requestKey, aesKey);
  const aesSwitch = await fetchAesSwitch(baseUrl);
  return { requestKey, aesKey, token, userKey: Buffer.from(token, 'utf8'), saltKey, aesSwitch };
}
