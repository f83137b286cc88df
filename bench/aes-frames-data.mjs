// The frames and the per-frame work of the AES-ECB benches (bench/aes-frames.mjs in Node,
// bench/aes-browser.ts in Chromium): agent texts as a visible page receives them, and what it does
// with each. `receipt` and `runFrames` are also sent into the page as source, so they use nothing
// but their arguments and the platform's `crypto`.
import { ascii, ecb } from './fake-key-exchange.mjs';

/** The text of every frame (its start, with the frame's number). */
const TEXT = 'Hello, thanks for waiting. Your order 4711 shipped today; tracking follows.';

/** `frames` agent texts (type 100, ~70 characters), each AES-ECB-encrypted under `key`. */
export function aesWire(frames, key) {
  return Array.from({ length: frames }, (_, i) =>
    ecb(key, JSON.stringify({ type: 100, from: 'agent-7', to: 'visitor-1', fn: 'Alice', tn: 'Visitor', fp: `r-${i}-${ascii(8)}`, mchId: 1, createTime: 1_700_000_000_000 + i, dataContent: `${TEXT.slice(0, 60)} #${i}`, isRead: 0, robot: 0, isGroup: 0 })),
  );
}

/** The read receipt (type 104) of a received text, as the SDK builds it. */
export function receipt(m) {
  return JSON.stringify({ type: 104, dataContent: m.fp, fp: crypto.randomUUID(), from: m.to, to: m.from, fn: m.tn, tn: m.fn, mchId: m.mchId, cm: m.createTime });
}

/**
 * Microseconds per frame, on `nowUs`'s clock: each frame decrypted and parsed, its read receipt
 * built and encrypted (`withReceipt`), its copy stored (other work between frames, as in a client,
 * which evicts whatever the cipher keeps in the CPU's caches). The same work for every build.
 */
export function runFrames({ aesEcbDecrypt, aesEcbEncrypt }, key, wire, withReceipt, nowUs) {
  const store = new Map();
  const start = nowUs();
  for (const frame of wire) {
    const message = JSON.parse(aesEcbDecrypt(key, frame));
    if (withReceipt) aesEcbEncrypt(key, receipt(message));
    store.set(message.fp, { ...message });
  }
  const spent = nowUs() - start;
  if (store.size !== wire.length) throw new Error(`stored ${store.size} of ${wire.length}`);
  return spent / wire.length;
}

/** The benches' rows: the page hidden (decryption only) and visible (a receipt per text). */
export const AES_ROWS = [
  ['decrypt + JSON.parse (page hidden)', false],
  ['decrypt + JSON.parse + receipt encrypted (page visible)', true],
];

/** Prints each row's least and median per build; `results` maps `row|build` to its rounds' figures. */
export function printAesRows(results, builds) {
  for (const [label] of AES_ROWS) {
    for (const name of builds) {
      const xs = [...results.get(`${label}|${name}`)].sort((a, b) => a - b);
      console.log(`${label.padEnd(56)} ${name.padEnd(12)} least ${xs[0].toFixed(2).padStart(6)}  median ${xs[xs.length >> 1].toFixed(2).padStart(6)}`);
    }
  }
}
