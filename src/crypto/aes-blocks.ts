/**
 * AES (FIPS 197) for AES-ECB frames: the key expansion and the block rounds, on little-endian
 * words (the layout of `@noble/ciphers`, whose rounds these were: decryption keys reversed and
 * InvMixColumns-adjusted, for the equivalent inverse cipher). Loads lazily with AES-ECB.
 *
 * The rounds use four 256-entry T-tables per direction (4 KiB, which stay in the L1 cache) instead
 * of noble's two merged 65,536-entry tables per direction (512 KiB, plus a 128 KiB S-box pair),
 * and no result object per block. A client decrypts and encrypts its frames between other work
 * (JSON, the message store, the socket), which evicts the large tables: measured in that setting,
 * a block costs ~0.18-0.26 us here against ~0.28-0.48 us through noble's functions
 * (bench/README.md, issue 24). The key expansion is here too (noble's module built its 1.25 MiB
 * of tables when imported: 13-14 ms in Node, more on a phone's first visit, for the key
 * expansion alone). Both are T-table AES, so neither is constant-time; the tests compare every
 * result with node:crypto and the key schedules with noble's.
 * @module
 */

/** Multiplication by x in GF(2^8) (AES polynomial). */
const mul2 = (n: number): number => ((n << 1) ^ (0x11b & -(n >> 7))) & 0xff;

/** Multiplication in GF(2^8). */
function mul(a: number, b: number): number {
  let r = 0;
  for (; b > 0; b >>= 1) {
    r ^= a & -(b & 1);
    a = mul2(a);
  }
  return r;
}

/** FIPS 197 S-box and its inverse (built as noble builds them: powers of 3, then the affine map). */
function sboxes(): { box: Uint8Array; inverse: Uint8Array } {
  const powers = new Uint8Array(256);
  for (let i = 0, x = 1; i < 256; i++, x ^= mul2(x)) powers[i] = x;
  const box = new Uint8Array(256);
  box[0] = 0x63;
  for (let i = 0; i < 255; i++) {
    let x = powers[255 - i] as number;
    x |= x << 8;
    box[powers[i] as number] = (x ^ (x >> 4) ^ (x >> 5) ^ (x >> 6) ^ (x >> 7) ^ 0x63) & 0xff;
  }
  const inverse = new Uint8Array(256);
  for (let i = 0; i < 256; i++) inverse[box[i] as number] = i;
  return { box, inverse };
}

/** One direction's tables: the S-box of its last round and T0-T3 (T0 rotated by 8, 16, 24 bits). */
interface Tables {
  box: Uint8Array;
  t0: Int32Array;
  t1: Int32Array;
  t2: Int32Array;
  t3: Int32Array;
}

/** Rotates a word left by 8 bits. */
const rotl8 = (n: number): number => (n << 8) | (n >>> 24);

/** T-tables in noble's little-endian lane order; `column` packs one S-box output's MixColumns word. */
function tables(box: Uint8Array, column: (s: number) => number): Tables {
  const t0 = new Int32Array(256);
  for (let i = 0; i < 256; i++) t0[i] = column(box[i] as number);
  const t1 = t0.map(rotl8);
  const t2 = t1.map(rotl8);
  const t3 = t2.map(rotl8);
  return { box, t0, t1, t2, t3 };
}

const { box, inverse } = sboxes();
/** MixColumns row [02, 01, 01, 03], little-endian lanes (noble's tableEncoding). */
const ENC = tables(box, (s) => (mul(s, 3) << 24) | (s << 16) | (s << 8) | mul(s, 2));
/** InvMixColumns row [0e, 09, 0d, 0b], little-endian lanes (noble's tableDecoding). */
const DEC = tables(inverse, (s) => (mul(s, 11) << 24) | (mul(s, 13) << 16) | (mul(s, 9) << 8) | mul(s, 14));

/** SubWord: the S-box applied to each byte of a word, in place. */
const subWord = (n: number): number =>
  (box[n & 255] as number) | ((box[(n >>> 8) & 255] as number) << 8) | ((box[(n >>> 16) & 255] as number) << 16) | ((box[n >>> 24] as number) << 24);

/** RotWord on a little-endian word (the first byte moves last): a right rotate by 8 bits. */
const rotr8 = (n: number): number => (n << 24) | (n >>> 8);

/**
 * The encryption round keys of a 16-, 24- or 32-byte key (FIPS 197 §5.2): 44, 52 or 60
 * little-endian words.
 * @param key - the key's bytes
 * @throws RangeError for any other key length
 */
export function expandEncryptionKey(key: Uint8Array): Uint32Array {
  if (key.length !== 16 && key.length !== 24 && key.length !== 32) throw new RangeError(`AES keys are 16, 24 or 32 bytes, got ${key.length}.`);
  const nk = key.length / 4;
  const xk = new Uint32Array(key.length + 28);
  for (let i = 0; i < nk; i++) xk[i] = (key[4 * i] as number) | ((key[4 * i + 1] as number) << 8) | ((key[4 * i + 2] as number) << 16) | ((key[4 * i + 3] as number) << 24);
  for (let i = nk, rcon = 1; i < xk.length; i++) {
    let t = xk[i - 1] as number;
    if (i % nk === 0) {
      t = subWord(rotr8(t)) ^ rcon;
      rcon = mul2(rcon);
    } else if (nk > 6 && i % nk === 4) {
      t = subWord(t);
    }
    xk[i] = (xk[i - nk] as number) ^ t;
  }
  return xk;
}

/**
 * The decryption round keys for {@link decryptWords}: the encryption round keys in reverse order,
 * InvMixColumns applied to all but the first and the last (the equivalent inverse cipher).
 * @param key - the key's bytes (16, 24 or 32)
 * @throws RangeError for any other key length
 */
export function expandDecryptionKey(key: Uint8Array): Uint32Array {
  const enc = expandEncryptionKey(key);
  const n = enc.length;
  const xk = new Uint32Array(n);
  for (let i = 0; i < n; i += 4) for (let j = 0; j < 4; j++) xk[i + j] = enc[n - i - 4 + j] as number;
  enc.fill(0);
  const { t0, t1, t2, t3 } = DEC;
  for (let i = 4; i < n - 4; i++) {
    // InvMixColumns(w) = InvMixColumns(InvSubBytes(SubBytes(w))): the decryption T-tables of SubWord(w)
    const w = subWord(xk[i] as number);
    xk[i] = (t0[w & 255] as number) ^ (t1[(w >>> 8) & 255] as number) ^ (t2[(w >>> 16) & 255] as number) ^ (t3[w >>> 24] as number);
  }
  return xk;
}

/**
 * Encrypts whole blocks in place: `words` holds 4 little-endian words a block (a `Uint32Array`
 * over the bytes on a little-endian platform; the caller swaps on a big-endian one).
 * @param words - the blocks; a trailing partial block is left as it is
 * @param xk - round keys from {@link expandEncryptionKey}
 */
export function encryptWords(words: Uint32Array, xk: Uint32Array): void {
  const { t0, t1, t2, t3, box: s } = ENC;
  const rounds = xk.length / 4 - 2;
  for (let i = 0; i + 4 <= words.length; i += 4) {
    let s0 = (words[i] as number) ^ (xk[0] as number);
    let s1 = (words[i + 1] as number) ^ (xk[1] as number);
    let s2 = (words[i + 2] as number) ^ (xk[2] as number);
    let s3 = (words[i + 3] as number) ^ (xk[3] as number);
    let k = 4;
    for (let r = 0; r < rounds; r++, k += 4) {
      const a = (xk[k] as number) ^ (t0[s0 & 255] as number) ^ (t1[(s1 >>> 8) & 255] as number) ^ (t2[(s2 >>> 16) & 255] as number) ^ (t3[s3 >>> 24] as number);
      const b = (xk[k + 1] as number) ^ (t0[s1 & 255] as number) ^ (t1[(s2 >>> 8) & 255] as number) ^ (t2[(s3 >>> 16) & 255] as number) ^ (t3[s0 >>> 24] as number);
      const c = (xk[k + 2] as number) ^ (t0[s2 & 255] as number) ^ (t1[(s3 >>> 8) & 255] as number) ^ (t2[(s0 >>> 16) & 255] as number) ^ (t3[s1 >>> 24] as number);
      const d = (xk[k + 3] as number) ^ (t0[s3 & 255] as number) ^ (t1[(s0 >>> 8) & 255] as number) ^ (t2[(s1 >>> 16) & 255] as number) ^ (t3[s2 >>> 24] as number);
      s0 = a;
      s1 = b;
      s2 = c;
      s3 = d;
    }
    // last round: SubBytes and ShiftRows, no MixColumns
    words[i] = (xk[k] as number) ^ ((s[s0 & 255] as number) | ((s[(s1 >>> 8) & 255] as number) << 8) | ((s[(s2 >>> 16) & 255] as number) << 16) | ((s[s3 >>> 24] as number) << 24));
    words[i + 1] = (xk[k + 1] as number) ^ ((s[s1 & 255] as number) | ((s[(s2 >>> 8) & 255] as number) << 8) | ((s[(s3 >>> 16) & 255] as number) << 16) | ((s[s0 >>> 24] as number) << 24));
    words[i + 2] = (xk[k + 2] as number) ^ ((s[s2 & 255] as number) | ((s[(s3 >>> 8) & 255] as number) << 8) | ((s[(s0 >>> 16) & 255] as number) << 16) | ((s[s1 >>> 24] as number) << 24));
    words[i + 3] = (xk[k + 3] as number) ^ ((s[s3 & 255] as number) | ((s[(s0 >>> 8) & 255] as number) << 8) | ((s[(s1 >>> 16) & 255] as number) << 16) | ((s[s2 >>> 24] as number) << 24));
  }
}

/**
 * Decrypts whole blocks in place (the equivalent inverse cipher: InvShiftRows reads the lanes in
 * the other direction).
 * @param words - the blocks, as for {@link encryptWords}
 * @param xk - round keys from {@link expandDecryptionKey}
 */
export function decryptWords(words: Uint32Array, xk: Uint32Array): void {
  const { t0, t1, t2, t3, box: s } = DEC;
  const rounds = xk.length / 4 - 2;
  for (let i = 0; i + 4 <= words.length; i += 4) {
    let s0 = (words[i] as number) ^ (xk[0] as number);
    let s1 = (words[i + 1] as number) ^ (xk[1] as number);
    let s2 = (words[i + 2] as number) ^ (xk[2] as number);
    let s3 = (words[i + 3] as number) ^ (xk[3] as number);
    let k = 4;
    for (let r = 0; r < rounds; r++, k += 4) {
      const a = (xk[k] as number) ^ (t0[s0 & 255] as number) ^ (t1[(s3 >>> 8) & 255] as number) ^ (t2[(s2 >>> 16) & 255] as number) ^ (t3[s1 >>> 24] as number);
      const b = (xk[k + 1] as number) ^ (t0[s1 & 255] as number) ^ (t1[(s0 >>> 8) & 255] as number) ^ (t2[(s3 >>> 16) & 255] as number) ^ (t3[s2 >>> 24] as number);
      const c = (xk[k + 2] as number) ^ (t0[s2 & 255] as number) ^ (t1[(s1 >>> 8) & 255] as number) ^ (t2[(s0 >>> 16) & 255] as number) ^ (t3[s3 >>> 24] as number);
      const d = (xk[k + 3] as number) ^ (t0[s3 & 255] as number) ^ (t1[(s2 >>> 8) & 255] as number) ^ (t2[(s1 >>> 16) & 255] as number) ^ (t3[s0 >>> 24] as number);
      s0 = a;
      s1 = b;
      s2 = c;
      s3 = d;
    }
    words[i] = (xk[k] as number) ^ ((s[s0 & 255] as number) | ((s[(s3 >>> 8) & 255] as number) << 8) | ((s[(s2 >>> 16) & 255] as number) << 16) | ((s[s1 >>> 24] as number) << 24));
    words[i + 1] = (xk[k + 1] as number) ^ ((s[s1 & 255] as number) | ((s[(s0 >>> 8) & 255] as number) << 8) | ((s[(s3 >>> 16) & 255] as number) << 16) | ((s[s2 >>> 24] as number) << 24));
    words[i + 2] = (xk[k + 2] as number) ^ ((s[s2 & 255] as number) | ((s[(s1 >>> 8) & 255] as number) << 8) | ((s[(s0 >>> 16) & 255] as number) << 16) | ((s[s3 >>> 24] as number) << 24));
    words[i + 3] = (xk[k + 3] as number) ^ ((s[s3 & 255] as number) | ((s[(s2 >>> 8) & 255] as number) << 8) | ((s[(s1 >>> 16) & 255] as number) << 16) | ((s[s0 >>> 24] as number) << 24));
  }
}
