/**
 * Bytes as lowercase hex: a file of its own, as start-up needs it (random ids) without the base64
 * and UTF-8 codecs of `encoding.ts`.
 * @module
 */

/**
 * Encodes bytes as lowercase hex.
 * @param b - the bytes
 * @returns two lowercase hex digits per byte
 */
export function bytesToHex(b: Uint8Array): string {
  let out = '';
  for (const byte of b) out += byte.toString(16).padStart(2, '0');
  return out;
}
