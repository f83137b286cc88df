/**
 * Base64 for AES-ECB frames, both ways, at frame rates: every encrypted frame is base64 of its
 * ciphertext, and a visible page sends a read receipt per text it receives. Loaded with the AES
 * helpers (lazily), so that start-up keeps the short `btoa`-based `bytesToBase64` of
 * `encoding.ts`; the strict `base64ToBytes` there still reads (or refuses) anything unusual.
 * @module
 * @internal
 */
import { base64ToBytes, utf8Decode } from './encoding.js';

/**
 * The platform's base64 of bytes (TC39 "Uint8Array to/from base64": Chromium 140+, Firefox 133+,
 * Safari 18.2+; not Node 20), looked up per call. In Chromium it takes 0.15 us for a receipt's
 * 256 bytes, against 0.66 us for the code below, which writes the characters and decodes them
 * with `TextDecoder`; decoding into the reused buffer, 0.14 us (bench/README.md, issue 24).
 */
interface NativeBase64 {
  /** Standard base64 with padding. */
  toBase64?: (this: Uint8Array) => string;
  /** Decodes into this array from its start; how many characters were read and bytes written. */
  setFromBase64?: (this: Uint8Array, text: string, options: typeof STRICT) => { read: number; written: number };
}
/**
 * The platform's strictest reading: padding required, spare bits zero. A text it refuses (rare for
 * a frame) goes to {@link base64ToBytes}, which reads or refuses it as it always did.
 */
const STRICT = { lastChunkHandling: 'strict' } as const;

/** The base64 alphabet's character codes, by 6-bit value. */
const BASE64_CODES = Uint8Array.from('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/', (c) => c.charCodeAt(0));

/**
 * Frames are coded one at a time and synchronously, so each direction reuses one buffer instead of
 * allocating a new one per frame: in Chromium a new typed array of a frame's size costs ~0.9 us
 * (its backing store, then its finalisation in the garbage collector), as much as the rest of the
 * base64 step (bench/README.md, issue 24). Each grows up to {@link SCRATCH_MAX} bytes; a larger
 * frame (rare) gets an array of its own.
 */
const SCRATCH_MAX = 65_536;
/** The base64 characters of the ciphertext being encoded. */
let encodeScratch = new Uint8Array(1024);
/** The bytes of the ciphertext being decoded. */
let decodeScratch = new Uint8Array(1024);

/** `current` when it holds `room` bytes, else a larger array (kept when up to {@link SCRATCH_MAX}). */
function scratchOf(current: Uint8Array<ArrayBuffer>, room: number, keep: (grown: Uint8Array<ArrayBuffer>) => void): Uint8Array<ArrayBuffer> {
  if (current.length >= room) return current;
  const grown = new Uint8Array((room + 1023) & ~1023);
  if (grown.length <= SCRATCH_MAX) keep(grown);
  return grown;
}

/**
 * Standard base64 (with padding) of a ciphertext: the characters are written as bytes (into a
 * reused buffer) and decoded once. For a frame this is ~3x faster than building the text a few
 * characters at a time, and many times faster than Node's `btoa` (the start-up code's
 * `bytesToBase64`, kept short there).
 * @param b - the bytes
 * @returns their base64 text
 */
export function ciphertextToBase64(b: Uint8Array): string {
  const native = (b as NativeBase64).toBase64;
  if (typeof native === 'function') return native.call(b);
  const length = Math.ceil(b.length / 3) * 4;
  const out = scratchOf(encodeScratch, length, (grown) => (encodeScratch = grown));
  for (let i = 0, o = 0; i < b.length; i += 3, o += 4) {
    const n = ((b[i] ?? 0) << 16) | ((b[i + 1] ?? 0) << 8) | (b[i + 2] ?? 0);
    out[o] = BASE64_CODES[n >> 18] as number;
    out[o + 1] = BASE64_CODES[(n >> 12) & 63] as number;
    out[o + 2] = i + 1 < b.length ? (BASE64_CODES[(n >> 6) & 63] as number) : 61; // '='
    out[o + 3] = i + 2 < b.length ? (BASE64_CODES[n & 63] as number) : 61;
  }
  return utf8Decode(out.subarray(0, length));
}

/** Each base64 character's 6-bit value by character code (-1: not in the alphabet). */
const BASE64_VALUES = new Int8Array(128).fill(-1);
BASE64_CODES.forEach((code, value) => (BASE64_VALUES[code] = value));

/**
 * The bytes of a ciphertext frame's base64: the usual padded text is decoded four characters at a
 * time; anything else (missing padding, a character outside the alphabet) goes to the strict
 * `base64ToBytes`, which decodes it or throws exactly as before.
 * The bytes are written into a reused buffer: the result is valid until the next call, and the
 * caller (the AES-ECB decryption, which decrypts them in place) wipes them when done.
 * @param text - the base64 text
 * @returns the decoded bytes, at offset 0 of their buffer (so a word view of them is aligned)
 * @throws Error `Invalid base64 string: ...` as {@link base64ToBytes} does
 */
export function base64ToCiphertext(text: string): Uint8Array {
  const length = text.length;
  const pad = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  if (length === 0 || length % 4 !== 0) return base64ToBytes(text);
  const size = (length / 4) * 3 - pad;
  const out = scratchOf(decodeScratch, size, (grown) => (decodeScratch = grown)).subarray(0, size);
  const native = (out as NativeBase64).setFromBase64;
  if (typeof native === 'function') {
    // whitespace, which the platform skips, shows as fewer bytes written; then, as on any
    // refusal, base64ToBytes decides
    try {
      const { read, written } = native.call(out, text, STRICT);
      if (read === length && written === size) return out;
    } catch {
      // not this path's to report: the strict decoder gives the usual error, or decodes
    }
    return base64ToBytes(text);
  }
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
