/**
 * The connect URL of protocol §3, with seams to break any one step (for refusal checks).
 * @module
 */

import { randomBytes } from 'node:crypto';
import { gcm, hmacHex, rsaEncrypt, rsaPublicKey } from './crypto.js';

/** Parts of a connect to replace with forged values, to check that the server refuses them. */
export interface ConnectForgery {
  /** Sign with this HMAC secret instead of the socket key's. */
  secret?: string;
  /** Send (and sign) this salt key instead of the session's. */
  t?: string;
  /** Send this `A` instead of the encrypted payload. */
  A?: string;
  /** Send this `B` instead of the encrypted connect key. */
  B?: string;
}

/**
 * The string that the connect's HMAC signs: the pairs `d`, `t`, `u` sorted by key, string values
 * as they are, others as JSON: `"d=" + JSON.stringify(d) + "&t=" + t + "&u=" + u`.
 * @param d - the connect data
 * @param t - the salt key
 * @param u - the client id
 */
export function signedConnectText(d: Record<string, unknown>, t: string, u: string): string {
  return `d=${JSON.stringify(d)}&t=${t}&u=${u}`;
}

/**
 * Builds `<socketUrl>?params=<encodeURIComponent(base64(JSON.stringify({ A, B })))>` (protocol §3).
 * @param socketUrl - the WebSocket endpoint
 * @param socketKey - `"<publicKey>,<secret>"`
 * @param saltKey - the key session (`t`)
 * @param clientId - the client id (`u`)
 * @param d - the connect data (`{}` by default)
 * @param forge - parts to break (refusal checks)
 */
export function connectUrl(
  socketUrl: string,
  socketKey: string,
  saltKey: string,
  clientId: string,
  d: Record<string, unknown> = {},
  forge: ConnectForgery = {},
): string {
  const comma = socketKey.indexOf(',');
  const publicKey = comma < 0 ? socketKey : socketKey.slice(0, comma);
  const secret = comma < 0 ? '' : socketKey.slice(comma + 1);
  const K = randomBytes(32);
  const B = rsaEncrypt(rsaPublicKey(publicKey), K.toString('base64'));
  const t = forge.t ?? saltKey;
  const s = hmacHex(forge.secret ?? secret, signedConnectText(d, t, clientId));
  const A = gcm(K, JSON.stringify({ d, u: clientId, t, s }));
  const params = Buffer.from(JSON.stringify({ A: forge.A ?? A, B: forge.B ?? B })).toString('base64');
  return `${socketUrl}?params=${encodeURIComponent(params)}`;
}
