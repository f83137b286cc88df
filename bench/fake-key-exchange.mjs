// The server side of protocol §1 for the SDK benches, in memory: a random AES key and user token,
// a fetch that answers the key exchange, and the frame ciphers (node:crypto) of the fake server.
import { createCipheriv, randomBytes } from 'node:crypto';

/** `n` random ASCII letters and digits. */
export const ascii = (n) => Array.from(randomBytes(n), (b) => 'abcdefghijklmnopqrstuvwxyz0123456789'[b % 36]).join('');

/** AES-256-GCM of `text` under `key`: base64(nonce || ciphertext || tag) (protocol conventions). */
export function gcm(key, text) {
  const nonce = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, nonce);
  const ct = Buffer.concat([c.update(text, 'utf8'), c.final()]);
  return Buffer.concat([nonce, ct, c.getAuthTag()]).toString('base64');
}

/** AES-256-ECB (PKCS#7) of `text` under the 32 ASCII characters `key`, base64 (a frame with the switch on). */
export function ecb(key, text) {
  const c = createCipheriv('aes-256-ecb', Buffer.from(key), null);
  return Buffer.concat([c.update(text, 'utf8'), c.final()]).toString('base64');
}

/** A key session: the AES key and the user token (32 ASCII characters each). */
export function benchKeys() {
  return { aesKey: ascii(32), token: ascii(32) };
}

/** A fetch that answers protocol §1 (the key exchange) with `keys` and the AES switch. */
export function fakeFetch({ aesKey, token }, aesSwitch) {
  return async (input) => {
    const url = new URL(typeof input === 'string' ? input : input.url);
    const r = url.searchParams.get('requestKey') ?? '';
    const routes = {
      '/im/api/permit/getServerTime': () => Date.now(),
      '/im/api/permit/getAesKey': () => Buffer.from(Buffer.from(aesKey).map((b, i) => b ^ r.charCodeAt(i % r.length))).toString('base64'),
      '/im/api/permit/getUserToken': () => ({ userToken: gcm(Buffer.from(aesKey), token), saltKey: 'bench' }),
      '/im/api/permit/switchAES': () => aesSwitch,
    };
    const data = routes[url.pathname]?.() ?? null;
    return Response.json({ code: 0, message: 'ok', data });
  };
}
