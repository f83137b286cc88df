/**
 * The connect payload's signature `s` (protocol §3), synchronously: for bots, servers and tests
 * through `@kefu-im/sdk/protocol`. The client's own connect signs with WebCrypto
 * (`buildConnectParams`), so that its chunk carries no SHA-256 of its own.
 * @module
 */
import { hmacSha256Hex } from '../crypto/hmac.js';
import { connectSignedText, type ConnectSignInput } from './connect-params.js';

/**
 * The signature `s` of the connect payload: lowercase hex HMAC-SHA256 under `secret` of the
 * `key=value` pairs sorted by key and joined with `&` (strings as they are, other values as JSON),
 * i.e. `"d=" + JSON.stringify(d) + "&t=" + t + "&u=" + u`.
 * @param secret - the HMAC secret (second part of `socketKey`)
 * @param p - the signed fields
 * @returns 64 lowercase hex characters
 */
export function signConnectPayload(secret: string, p: ConnectSignInput): string {
  return hmacSha256Hex(secret, connectSignedText(p));
}
