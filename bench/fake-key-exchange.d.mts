/**
 * Types of bench/fake-key-exchange.mjs (the in-memory key exchange of the SDK benches).
 * @module
 */

/** A key session: the AES key and the user token (32 ASCII characters each). */
export interface BenchKeys {
  aesKey: string;
  token: string;
}
/** `n` random ASCII letters and digits. */
export function ascii(n: number): string;
/** AES-256-GCM of `text` under `key`: base64(nonce || ciphertext || tag). */
export function gcm(key: Buffer, text: string): string;
/** AES-256-ECB (PKCS#7) of `text` under the 32 ASCII characters `key`, base64. */
export function ecb(key: string, text: string): string;
/** A fresh key session. */
export function benchKeys(): BenchKeys;
/** A fetch that answers protocol §1 (the key exchange) with `keys` and the AES switch. */
export function fakeFetch(keys: BenchKeys, aesSwitch: boolean): (input: string | Request) => Promise<Response>;
