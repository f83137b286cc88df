/**
 * Base64 for AES-ECB frames, both ways, at frame rates: every encrypted frame is base64 of its
 * ciphertext, and a visible page sends a read receipt per text it receives. Loaded with the AES
 * helpers (lazily), so that start-up keeps the short `btoa`-based `bytesToBase64` of
 * `encoding.ts`; the strict `base64ToBytes` there still reads (or refuses) anything unusual.
 * @module
 * @internal
 */
import { base64ToBytes, utf8Decode } from './encoding.js';

/** The base64 alphabet's character codes, by 6-bit value. */
const BASE64_CODES = Uint8Array.from('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/', (c) => c.charCodeAt(0));

/**
 * Standard base64 (with padding) of a ciphertext: the characters are written as bytes and decoded
 * once. For a frame this is ~3x faster than building the text a few characters at a time, and
 * many times faster than Node's `btoa` (the start-up code's `bytesToBase64`, kept short there).
 * @param b - the bytes
 * @returns their base64 text
 */
export function ciphertextToBase64(b: Uint8Array): string {
  const out = new Uint8Array(Math.ceil(b.length / 3) * 4).fill(61); // '=' where nothing is written
  for (let i = 0, o = 0; i < b.length; i += 3, o += 4) {
    const n = ((b[i] ?? 0) << 16) | ((b[i + 1] ?? 0) << 8) | (b[i + 2] ?? 0);
    out[o] = BASE64_CODES[n >> 18] as number;
    out[o + 1] = BASE64_CODES[(n >> 12) & 63] as number;
    if (i + 1 < b.length) out[o + 2] = BASE64_CODES[(n >> 6) & 63] as number;
    if (i + 2 < b.length) out[o + 3] = BASE64_CODES[n & 63] as number;
  }
  return utf8Decode(out);
}

/** Each base64 character's 6-bit value by character code (-1: not in the alphabet). */
const BASE64_VALUES = new Int8Array(128).fill(-1);
BASE64_CODES.forEach((code, value) => (BASE64_VALUES[code] = value));

/**
 * The bytes of a ciphertext frame's base64: the usual padded text is decoded four characters at a
 * time; anything else (missing padding, a character outside the alphabet) goes to the strict
 * `base64ToBytes`, which decodes it or throws exactly as before.
 * @param text - the base64 text
 * @returns a new array of the decoded bytes (offset 0, so a word view of it is aligned)
 * @throws Error `Invalid base64 string: ...` as {@link base64ToBytes} does
 */
export function base64ToCiphertext(text: string): Uint8Array {
  const length = text.length;
  const pad = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  if (length === 0 || length % 4 !== 0) return base64ToBytes(text);
  const out = new Uint8Array((length / 4) * 3 - pad);
  const body = length - (pad ? 4 : 0); // the last group, when padded, goes the strict way below
  let o = 0;
  for (let i = 0; i < body; i += 4) {
    const a = BASE64_VALUES[text.charCodeAt(i)] ?? -1;
    const b = BASE64_VALUES[text.charCodeAt(i + 1)] ?? -1;
    const c = BASE64_VALUES[text.charCodeAt(i + 2)] ?? -1;
    const d = BASE64_VALUES[text.charCodeAt(i + 3)] ?? -1;
    if ((a | b | c | d) < 0) return base64ToBytes(text);
    const n = (a << 18) | (b << 12) | (c << 6) | d;
    out[o++] = n >> 16;
    out[o++] = (n >> 8) & 255;
    out[o++] = n & 255;
  }
  if (pad) out.set(base64ToBytes(text.slice(body)), o);
  return out;
}
