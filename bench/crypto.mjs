#!/usr/bin/env node
// crypto-js against @noble/ciphers for the protocol's AES-256-ECB frames (and HMAC-SHA256 from
// crypto-js against @noble/hashes), from the same run: what each adds to a browser bundle
// (min+gzip, esbuild) and how many typical frames per second each encrypts and decrypts, with the
// same base64/UTF-8 conversions as the SDK. The SDK uses noble's key expansion with rounds of its own
// (`src/crypto/aes-ecb.ts`, `aes-blocks.ts`); crypto-js
// is no longer a dependency, so its column prints only where it is installed
// (`npm i --no-save crypto-js@4.2.0` to compare again). `npm run build` first.
import { createCipheriv } from 'node:crypto';
import { createRequire } from 'node:module';
import { aesEcbDecrypt, aesEcbEncrypt } from '../dist/protocol.js';
import { measureBundle } from '../scripts/size-lib.mjs';

const ROUNDS = Number(process.env.FRAMES ?? 20_000);
const KEY = '0123456789abcdef0123456789abcdef';
const FRAME = JSON.stringify({
  type: 100, from: 'agent-7', to: 'visitor-1', fn: 'Alice', tn: 'Visitor', fp: 'r0-1-abcdefgh', mchId: 1,
  createTime: 1_700_000_000_000, dataContent: 'Hello, thanks for waiting. Your order 4711 shipped today; tracking #1', isRead: 0, robot: 0, isGroup: 0,
});
const WIRE = (() => {
  const c = createCipheriv('aes-256-ecb', Buffer.from(KEY), null);
  return Buffer.concat([c.update(FRAME, 'utf8'), c.final()]).toString('base64');
})();

/** What crypto-js 4.2 needs for the same job (the SDK's former src/crypto/aes-ecb.ts and hmac.ts). */
const CRYPTO_JS_SOURCE = `
import 'crypto-js/aes.js';
import C from 'crypto-js/core.js';
import B from 'crypto-js/enc-base64.js';
import U from 'crypto-js/enc-utf8.js';
import E from 'crypto-js/mode-ecb.js';
import P from 'crypto-js/pad-pkcs7.js';
import H from 'crypto-js/hmac-sha256.js';
import X from 'crypto-js/enc-hex.js';
const k = U.parse(${JSON.stringify(KEY)});
export const enc = (s) => C.AES.encrypt(U.parse(s), k, { mode: E, padding: P }).toString();
export const dec = (b) => C.AES.decrypt(B.parse(b), k, { mode: E, padding: P }).toString(U);
export const mac = (k, m) => H(m, k).toString(X);`;
/** What the SDK needs from noble for the same job. */
const NOBLE_SOURCE = `
import { ecb } from '@noble/ciphers/aes.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
const k = new TextEncoder().encode(${JSON.stringify(KEY)});
export const enc = (s) => ecb(k).encrypt(new TextEncoder().encode(s));
export const dec = (b) => ecb(k).decrypt(b);
export const mac = (k, m) => hmac(sha256, k, m);`;
const AES_ONLY = (src) => src.replace(/^export const mac.*$/m, '').replace(/^import .*(hmac|sha2|hmac-sha256|enc-hex).*$/gm, '');

function rate(fn) {
  for (let i = 0; i < 500; i++) fn(); // warm-up
  const t0 = performance.now();
  for (let i = 0; i < ROUNDS; i++) fn();
  return (ROUNDS / (performance.now() - t0)) * 1000;
}

async function cryptoJs() {
  try {
    const require = createRequire(import.meta.url);
    require.resolve('crypto-js/core.js');
  } catch {
    return null;
  }
  const C = (await import('crypto-js/core.js')).default;
  await import('crypto-js/aes.js');
  const B = (await import('crypto-js/enc-base64.js')).default;
  const U = (await import('crypto-js/enc-utf8.js')).default;
  const E = (await import('crypto-js/mode-ecb.js')).default;
  const P = (await import('crypto-js/pad-pkcs7.js')).default;
  const k = U.parse(KEY);
  // As the SDK used it: one encryptor and one decryptor per key (key schedule computed once).
  const e = C.algo.AES.createEncryptor(k, { mode: E, padding: P });
  const d = C.algo.AES.createDecryptor(k, { mode: E, padding: P });
  const enc = (s) => (e.reset(), e.finalize(U.parse(s)).toString(B));
  const dec = (b) => (d.reset(), d.finalize(B.parse(b)).toString(U));
  if (enc(FRAME) !== WIRE || dec(WIRE) !== FRAME) throw new Error('crypto-js is not byte-compatible here');
  const [all, aes] = await Promise.all([measureBundle({ stdin: CRYPTO_JS_SOURCE }), measureBundle({ stdin: AES_ONLY(CRYPTO_JS_SOURCE) })]);
  return { size: all.initial, aesSize: aes.initial, enc: rate(() => enc(FRAME)), dec: rate(() => dec(WIRE)) };
}

async function noble() {
  if (aesEcbEncrypt(KEY, FRAME) !== WIRE || aesEcbDecrypt(KEY, WIRE) !== FRAME) throw new Error('the SDK is not byte-compatible');
  const [all, aes] = await Promise.all([measureBundle({ stdin: NOBLE_SOURCE }), measureBundle({ stdin: AES_ONLY(NOBLE_SOURCE) })]);
  return { size: all.initial, aesSize: aes.initial, enc: rate(() => aesEcbEncrypt(KEY, FRAME)), dec: rate(() => aesEcbDecrypt(KEY, WIRE)) };
}

const kb = (n) => `${(n / 1024).toFixed(1)} kB`.padStart(10);
const fps = (n) => Math.round(n).toLocaleString('en-US').padStart(10);
const n = await noble();
const c = await cryptoJs();
console.log(`AES-256-ECB frames of ${FRAME.length} characters (base64 + UTF-8 included), Node ${process.version}`);
console.log(`${''.padEnd(34)} ${'crypto-js'.padStart(10)} ${'noble'.padStart(10)}`);
const row = (label, f, get) => console.log(`${label.padEnd(34)} ${c ? f(get(c)) : '       n/a'} ${f(get(n))}`);
row('bundle, AES-ECB (min+gzip)', kb, (x) => x.aesSize);
row('bundle, AES-ECB + HMAC (min+gzip)', kb, (x) => x.size);
row('encrypt, frames/s', fps, (x) => x.enc);
row('decrypt, frames/s', fps, (x) => x.dec);
if (!c) console.log('(crypto-js is not installed: `npm i --no-save crypto-js@4.2.0` to print its column)');
