/**
 * The socket connect parameters of protocol §3: `params = base64(JSON.stringify({ A, B }))`.
 *
 * - `K` = 32 secure random bytes, `keyString` = `base64(K)`;
 * - `B` = RSA-PKCS1-v1_5 encryption of `keyString` under the public key (`crypto/rsa.ts`);
 * - `P` = `{ d, u, t, s }` with `s` = HMAC-SHA256 over the sorted `key=value` pairs (WebCrypto's
 *   here; `signConnectPayload` in `connect-signature.ts` is the synchronous equivalent);
 * - `A` = `GCM(K, JSON.stringify(P))`.
 * @module
 */
import { gcmEncrypt } from '../crypto/aes-gcm.js';
import { bytesToBase64, utf8Encode } from '../crypto/encoding.js';
import { hmacSha256HexAsync } from '../crypto/hmac-webcrypto.js';
import { randomBytes } from '../crypto/random.js';
import { rsaEncrypt } from '../crypto/rsa.js';

/** The two halves of the `socketKey` option. */
export interface SocketKeyParts {
  /** RSA public key, base64 DER SubjectPublicKeyInfo. */
  publicKey: string;
  /** HMAC secret. */
  secret: string;
}

/** The fields of the connect payload that are signed. */
export interface ConnectSignInput {
  /** Connect data. */
  d: unknown;
  /** The salt key. */
  t: string;
  /** The client id. */
  u: string;
}

/** Input of {@link buildConnectParams}. */
export interface ConnectParamsInput {
  /** `"<publicKey>,<secret>"` (the `socketKey` option). */
  socketKey: string;
  /** The client id (`u`): the uuid kept in storage. */
  clientId: string;
  /** The salt key (`t`) of the current key session. */
  saltKey: string;
  /** Connect data (`d`), default `{}`. */
  data?: Record<string, unknown>;
}

/** Output of {@link buildConnectParams}. */
export interface ConnectParams {
  /** `GCM(K, JSON.stringify({ d, u, t, s }))`. */
  A: string;
  /** `base64(RSA(publicKey, base64(K)))`. */
  B: string;
  /** `base64(JSON.stringify({ A, B }))`, not yet URI-encoded (see {@link buildSocketUrl}). */
  params: string;
  /** The random GCM key `K` (32 bytes). */
  key: Uint8Array;
}

/**
 * Splits the `socketKey` option at its FIRST comma into the public key and the HMAC secret
 * (the secret may itself contain commas). Surrounding whitespace of each part is dropped.
 * @param socketKey - `"<publicKey>,<secret>"`
 * @returns both parts
 * @throws Error when there is no comma or either part is empty
 */
export function parseSocketKey(socketKey: string): SocketKeyParts {
  const text = typeof socketKey === 'string' ? socketKey : '';
  const comma = text.indexOf(',');
  const publicKey = comma < 0 ? text.trim() : text.slice(0, comma).trim();
  const secret = comma < 0 ? '' : text.slice(comma + 1).trim();
  if (publicKey === '' || secret === '') {
    throw new Error('Invalid socketKey: expected "<publicKey>,<secret>" with both parts non-empty.');
  }
  return { publicKey, secret };
}

/**
 * Serializes one value of the signed pairs: strings as they are, anything else as JSON.
 * @internal
 */
function pairValue(value: unknown): string {
  return typeof value === 'string' ? value : String(JSON.stringify(value));
}

/**
 * The text the connect payload's signature `s` is made over: the `key=value` pairs sorted by key
 * and joined with `&` (strings as they are, other values as JSON), i.e.
 * `"d=" + JSON.stringify(d) + "&t=" + t + "&u=" + u`.
 * @param p - the signed fields
 * @internal
 */
export function connectSignedText(p: ConnectSignInput): string {
  const fields: Record<string, unknown> = { d: p.d, t: p.t, u: p.u };
  return Object.keys(fields)
    .sort()
    .map((k) => `${k}=${pairValue(fields[k])}`)
    .join('&');
}

/**
 * Builds the connect parameters of protocol §3 (fresh random key `K` every call).
 * @param input - socket key, client id, salt key and connect data
 * @returns `A`, `B`, the `params` value and the key `K`
 * @throws Error when `socketKey` is malformed or `clientId`/`saltKey` is empty
 * @throws Error `RSA_ENCRYPT_ERROR` when the public-key encryption fails
 */
export async function buildConnectParams(input: ConnectParamsInput): Promise<ConnectParams> {
  const { publicKey, secret } = parseSocketKey(input.socketKey);
  if (typeof input.clientId !== 'string' || input.clientId === '') {
    throw new Error('buildConnectParams: clientId must be a non-empty string.');
  }
  if (typeof input.saltKey !== 'string' || input.saltKey === '') {
    throw new Error('buildConnectParams: saltKey must be a non-empty string (fetch the user token first).');
  }
  const d = input.data ?? {};
  const key = randomBytes(32);
  const [B, s] = await Promise.all([rsaEncrypt(publicKey, bytesToBase64(key)), hmacSha256HexAsync(secret, connectSignedText({ d, t: input.saltKey, u: input.clientId }))]);
  const payload = { d, u: input.clientId, t: input.saltKey, s };
  const A = await gcmEncrypt(key, JSON.stringify(payload));
  const params = bytesToBase64(utf8Encode(JSON.stringify({ A, B })));
  return { A, B, params, key };
}

/**
 * The WebSocket address: `<socketUrl>?params=<encodeURIComponent(params)>`, joined with `&`
 * when `socketUrl` already has a query.
 * @param socketUrl - the WebSocket endpoint
 * @param params - the `params` of {@link buildConnectParams}
 * @returns the URL to open
 */
export function buildSocketUrl(socketUrl: string, params: string): string {
  let sep = '?';
  if (socketUrl.includes('?')) sep = socketUrl.endsWith('?') || socketUrl.endsWith('&') ? '' : '&';
  return `${socketUrl}${sep}params=${encodeURIComponent(params)}`;
}
