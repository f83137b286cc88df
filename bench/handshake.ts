/**
 * Handshake benchmark: the server's RSA PKCS#1 v1.5 decryption before (jsencrypt, pure JS, on the
 * event loop) and after (native `privateDecrypt` with `RSA_NO_PADDING` and the constant-time
 * unpadding with implicit rejection), in the same run:
 * 1. RSA decryption alone, in this process, on the server's key size (1024 bits);
 * 2. full handshakes on loopback (key exchange, socket connect, welcome, close) against the
 *    reference server started in a child process with each decryptor in turn, driven by the
 *    load generator's workers (bench/loadgen).
 *
 * `npm run bench:handshake -- [--seconds 5] [--concurrency 32] [--workers 2]`
 * @module
 */

import { constants, createPublicKey, publicEncrypt, randomBytes } from 'node:crypto';
import { rsaPrivateKey, rsaPrivateKeyJs, type RsaPrivateKey } from '../examples/server/src/crypto.js';
import { generateKeys } from '../examples/server/src/keys.js';
import { handshakePhase } from './loadgen/phases.js';
import { killAll } from './loadgen/procs.js';
import { machineLine, startRig, stopRig } from './loadgen/rig.js';

function option(name: string, fallback: number, max: number): number {
  const i = process.argv.indexOf(name);
  if (i < 0) return fallback;
  const value = Number(process.argv[i + 1]);
  if (!Number.isInteger(value) || value < 1 || value > max) throw new Error(`${name} must be an integer from 1 to ${max}`);
  return value;
}

/** Decrypts `ciphertexts` round-robin for about `budgetMs`; returns wall and CPU ms per decryption. */
function timeDecrypt(rsa: RsaPrivateKey, ciphertexts: string[], expected: string[], budgetMs: number): { msPerOp: number; cpuMsPerOp: number; ops: number } {
  for (let i = 0; i < 10; i += 1) rsa.decrypt(ciphertexts[i % ciphertexts.length] ?? '');
  const cpu = process.cpuUsage();
  const start = performance.now();
  let ops = 0;
  while (performance.now() - start < budgetMs) {
    for (let i = 0; i < 20; i += 1, ops += 1) {
      const index = ops % ciphertexts.length;
      if (rsa.decrypt(ciphertexts[index] ?? '') !== expected[index]) throw new Error('wrong decryption');
    }
  }
  const used = process.cpuUsage(cpu);
  return { msPerOp: (performance.now() - start) / ops, cpuMsPerOp: (used.user + used.system) / 1000 / ops, ops };
}

async function main(): Promise<void> {
  const seconds = option('--seconds', 5, 60);
  const concurrency = option('--concurrency', 32, 512);
  const workers = option('--workers', 2, 8);
  const watchdog = setTimeout(() => {
    console.error('handshake bench: over its time limit; stopping');
    killAll();
    process.exit(3);
  }, (2 * seconds + 120) * 1000);
  watchdog.unref();
  console.log(machineLine());

  // 1. RSA decryption alone
  const keys = generateKeys();
  const pub = createPublicKey({ key: Buffer.from(keys.publicKey, 'base64'), format: 'der', type: 'spki' });
  const plain = Array.from({ length: 64 }, () => randomBytes(32).toString('base64'));
  const ciphertexts = plain.map((p) => publicEncrypt({ key: pub, padding: constants.RSA_PKCS1_PADDING }, Buffer.from(p)).toString('base64'));
  const js = timeDecrypt(rsaPrivateKeyJs(keys.privateKeyPem), ciphertexts, plain, 1500);
  const native = timeDecrypt(rsaPrivateKey(keys.privateKeyPem), ciphertexts, plain, 1500);
  console.log('');
  console.log('RSA-1024 PKCS#1 v1.5 decryption alone (one thread, this process):');
  console.log(`  before, jsencrypt       : ${js.msPerOp.toFixed(3)} ms per decryption (CPU ${js.cpuMsPerOp.toFixed(3)} ms) = ${(1000 / js.msPerOp).toFixed(0)}/s (${js.ops} ops)`);
  console.log(
    `  after, native + implicit: ${native.msPerOp.toFixed(3)} ms per decryption (CPU ${native.cpuMsPerOp.toFixed(3)} ms) = ${(1000 / native.msPerOp).toFixed(0)}/s (${native.ops} ops), ${(js.msPerOp / native.msPerOp).toFixed(0)}x faster`,
  );

  // 2. full handshakes against the server with each decryptor
  const rates: Record<string, number> = {};
  for (const rsa of ['jsencrypt', 'native'] as const) {
    const { rig } = await startRig({ url: '', workers, agents: 1, aes: true, rsa, maxSeconds: seconds + 60 }, false);
    try {
      console.log('');
      console.log(`server with RSA ${rsa} (pid ${rig.server?.pid}), ${workers} generator workers:`);
      const result = await handshakePhase(rig, seconds, concurrency);
      rates[rsa] = result.rate;
      console.log(result.lines.join('\n'));
    } finally {
      await stopRig(rig);
    }
  }
  console.log('');
  console.log(`full handshakes per second: before (jsencrypt) ${rates['jsencrypt']?.toFixed(0)}/s, after (native) ${rates['native']?.toFixed(0)}/s`);
  clearTimeout(watchdog);
}

main().catch((error: unknown) => {
  console.error(error);
  killAll();
  process.exit(1);
});
