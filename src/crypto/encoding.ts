/**
 * Byte/text encodings used by the crypto helpers: base64, base64url, UTF-8 and hex.
 *
 * Pure functions with no dependency on Node's `Buffer`, so that they run unchanged in browsers,
 * workers and Node 20.
 * @module
 */

export { bytesToHex } from './hex.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Maps a char code to its 6-bit value, or -1 when it is not in the base64 alphabet. */
const DECODE_TABLE: Int16Array = (() => {
  const table = new Int16Array(128).fill(-1);
  for (let i = 0; i < ALPHABET.length; i++) table[ALPHABET.charCodeAt(i)] = i;
  return table;
})();

/**
 * Encodes bytes as RFC 4648 standard base64 with padding, through the platform's `btoa`
 * (browsers, workers, Node 16+): the shortest code for start-up. Encrypted frames, many a second,
 * take the faster encoder of `frame-base64.ts` (Node's `btoa` is slow).
 * @param b - the bytes to encode
 * @returns the base64 text (empty for no bytes)
 */
export function bytesToBase64(b: Uint8Array): string {
  let binary = '';
  // in slices: a call's arguments are limited
  for (let i = 0; i < b.length; i += 4096) binary += String.fromCharCode(...b.subarray(i, i + 4096));
  return btoa(binary);
}

/**
 * Decodes RFC 4648 standard base64. Padding is optional; whitespace, characters outside the
 * alphabet, misplaced `=` and impossible lengths are rejected.
 * @param s - the base64 text
 * @returns the decoded bytes
 * @throws Error `Invalid base64 string: ...` when `s` is not valid base64
 */
export function base64ToBytes(s: string): Uint8Array {
  if (typeof s !== 'string') throw new Error('Invalid base64 string: expected a string.');
  const firstPad = s.indexOf('=');
  const body = firstPad === -1 ? s : s.slice(0, firstPad);
  const padding = firstPad === -1 ? '' : s.slice(firstPad);
  if (padding.length > 2 || /[^=]/.test(padding)) {
    throw new Error('Invalid base64 string: misplaced padding.');
  }
  if (padding.length > 0 && (body.length + padding.length) % 4 !== 0) {
    throw new Error('Invalid base64 string: wrong padding length.');
  }
  if (body.length % 4 === 1) throw new Error('Invalid base64 string: impossible length.');
  const out = new Uint8Array(Math.floor((body.length * 3) / 4));
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < body.length; i++) {
    const code = body.charCodeAt(i);
    const v = code < 128 ? (DECODE_TABLE[code] ?? -1) : -1;
    if (v < 0) throw new Error(`Invalid base64 string: unexpected character at index ${i}.`);
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}

/** One encoder and one strict decoder, made on first use (they hold no state between calls). */
let encoder: TextEncoder | undefined;
let decoder: TextDecoder | undefined;

/**
 * Encodes text as UTF-8 bytes.
 * @param s - the text
 * @returns its UTF-8 bytes
 */
export function utf8Encode(s: string): Uint8Array {
  encoder ??= new TextEncoder();
  return encoder.encode(s);
}

/**
 * Decodes UTF-8 bytes strictly.
 * @param b - the bytes
 * @returns the text
 * @throws TypeError when the bytes are not valid UTF-8
 */
export function utf8Decode(b: Uint8Array): string {
  decoder ??= new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  return decoder.decode(b);
}

/**
 * Encodes text as base64url (RFC 4648 §5) of its UTF-8 bytes, without padding.
 * @param text - the text
 * @returns the base64url text
 */
export function base64UrlEncode(text: string): string {
  return bytesToBase64(utf8Encode(text)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * Decodes base64url (with or without padding) into bytes. The standard alphabet's `+` and `/` are
 * accepted as well.
 * @param s - the base64url text
 * @returns the decoded bytes
 * @throws Error `Invalid base64url string: ...` when `s` is not base64url
 */
export function base64UrlToBytes(s: string): Uint8Array {
  if (typeof s !== 'string') throw new Error('Invalid base64url string: expected a string.');
  try {
    return base64ToBytes(s.replace(/-/g, '+').replace(/_/g, '/'));
  } catch (e) {
    throw new Error(`Invalid base64url string: ${(e as Error).message.replace(/^Invalid base64 string: /, '')}`);
  }
}

/**
 * Decodes base64url (with or without padding) into UTF-8 text. The standard alphabet's `+` and
 * `/` are accepted as well, since they cannot be confused with anything else.
 * @param s - the base64url text
 * @returns the decoded text
 * @throws Error `Invalid base64url string: ...` when `s` is not base64url or not UTF-8
 */
export function base64UrlDecode(s: string): string {
  const bytes = base64UrlToBytes(s);
  try {
    return utf8Decode(bytes);
  } catch {
    throw new Error('Invalid base64url string: the decoded bytes are not UTF-8 text.');
  }
}
