import {
  constants,
  createHash,
  createHmac,
  createPrivateKey,
  createPublicKey,
  privateDecrypt,
  publicEncrypt,
  randomBytes,
  randomUUID,
  type KeyObject,
} from 'node:crypto';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DecryptError, rsaPrivateKey, rsaPrivateKeyJs, unpadPkcs1Implicit } from '../src/crypto.js';
import { generateKeys, type ServerKeys } from '../src/keys.js';
import { gcm, keyExchange, TestSocket, type Session } from '../../../conformance/src/client/index.js';
import { removeDir, startServer } from './helpers/start.js';

interface JsEncryptLike {
  setPublicKey(key: string): void;
  encrypt(text: string): string | false;
}
const JSEncrypt = createRequire(import.meta.url)('jsencrypt') as new () => JsEncryptLike;

const keys: ServerKeys = generateKeys();
const publicKey: KeyObject = createPublicKey({ key: Buffer.from(keys.publicKey, 'base64'), format: 'der', type: 'spki' });
const native = rsaPrivateKey(keys.privateKeyPem);
const k = native.modulusBytes;

/** What the SDK does (protocol §3 step 2): jsencrypt's `encrypt` of the key string. */
function sdkEncrypt(text: string): string {
  const rsa = new JSEncrypt();
  rsa.setPublicKey(keys.publicKey);
  const out = rsa.encrypt(text);
  if (out === false) throw new Error('jsencrypt failed');
  return out;
}

/** The ciphertext whose raw RSA decryption is exactly `em` (k bytes below the modulus). */
function rawCiphertext(em: Buffer): Buffer {
  return publicEncrypt({ key: publicKey, padding: constants.RSA_NO_PADDING }, em);
}

/** A well-formed encoded message: 00 02 PS(nonzero, psLength) 00 message. */
function encoded(message: Buffer, psLength = k - 3 - message.length): Buffer {
  const ps = Buffer.alloc(psLength, 0x5a);
  const em = Buffer.concat([Buffer.from([0, 2]), ps, Buffer.from([0]), message]);
  return Buffer.concat([em, Buffer.alloc(k - em.length, 0x33)]);
}

/**
 * An independent, plain (not constant-time) reading of the implicit-rejection rule, to check the
 * constant-time code against: KDK = HMAC(SHA256(d as k bytes), C as k bytes); PRF blocks
 * HMAC(KDK, i || label || bits); the synthetic length is the last of 128 masked 16-bit candidates
 * below k - 10; the synthetic message the last that many bytes of PRF("message", k).
 */
function referenceDecrypt(pem: string, c: Buffer): Buffer {
  const jwk = createPrivateKey(pem).export({ format: 'jwk' });
  const n = Buffer.from(String(jwk.n), 'base64url');
  const size = n.length;
  const pad = (b: Buffer): Buffer => (b.length >= size ? b : Buffer.concat([Buffer.alloc(size - b.length), b]));
  const kdk = createHmac('sha256', createHash('sha256').update(pad(Buffer.from(String(jwk.d), 'base64url'))).digest()).update(pad(c)).digest();
  const prf = (label: string, bytes: number): Buffer => {
    const blocks: Buffer[] = [];
    for (let i = 0; blocks.length * 32 < bytes; i += 1) {
      const head = Buffer.from([i >> 8, i & 255]);
      const bits = Buffer.from([(bytes * 8) >> 8, (bytes * 8) & 255]);
      blocks.push(createHmac('sha256', kdk).update(Buffer.concat([head, Buffer.from(label), bits])).digest());
    }
    return Buffer.concat(blocks).subarray(0, bytes);
  };
  if (c.length <= size && Buffer.compare(pad(c), n) < 0) {
    const em = privateDecrypt({ key: createPrivateKey(pem), padding: constants.RSA_NO_PADDING }, pad(c));
    const separator = em.indexOf(0, 2);
    if (em[0] === 0 && em[1] === 2 && separator >= 10) return em.subarray(separator + 1);
  }
  const lengths = prf('length', 256);
  let length = 0;
  const maxSep = size - 10;
  const mask = 2 ** Math.ceil(Math.log2(maxSep + 1)) - 1;
  for (let i = 0; i < 256; i += 2) {
    const candidate = ((lengths[i] ?? 0) * 256 + (lengths[i + 1] ?? 0)) & mask;
    if (candidate < maxSep) length = candidate;
  }
  return prf('message', size).subarray(size - length);
}

describe('native RSA PKCS#1 v1.5 decryption', () => {
  it('decrypts what the SDK encrypts (jsencrypt), as jsencrypt itself does', () => {
    const js = rsaPrivateKeyJs(keys.privateKeyPem);
    for (let i = 0; i < 10; i += 1) {
      const keyString = randomBytes(32).toString('base64');
      const b = sdkEncrypt(keyString);
      expect(native.decrypt(b)).toBe(keyString);
      expect(js.decrypt(b)).toBe(keyString);
    }
  });

  it('decrypts node publicEncrypt with PKCS#1 padding for every message length up to k - 11', () => {
    for (let length = 0; length <= k - 11; length += 1) {
      const message = randomBytes(length);
      const c = publicEncrypt({ key: publicKey, padding: constants.RSA_PKCS1_PADDING }, message);
      expect(native.decryptBytes(c).equals(message)).toBe(true);
    }
  });

  it('accepts the shortest padding string (8 bytes) and a message at the very end', () => {
    const message = Buffer.from('the eight-byte minimum');
    const em = encoded(message, 8).subarray(0, 2 + 8 + 1 + message.length);
    const full = Buffer.concat([em.subarray(0, 2), Buffer.alloc(k - em.length, 0x7e), em.subarray(2)]);
    expect(native.decryptBytes(rawCiphertext(full)).equals(message)).toBe(true);
    const short = Buffer.concat([Buffer.from([0, 2]), Buffer.alloc(8, 1), Buffer.from([0]), Buffer.alloc(k - 11, 0x41)]);
    expect(native.decryptBytes(rawCiphertext(short)).equals(Buffer.alloc(k - 11, 0x41))).toBe(true);
  });

  it("matches OpenSSL 3.2's implicit-rejection test vector (evppkey_rsa_common.txt, RSA-2048)", () => {
    const pem = [
      '-----BEGIN PRIVATE KEY-----',
      'MIIEvAIBADANBgkqhkiG9w0BAQEFAASCBKYwggSiAgEAAoIBAQDNAIHqeyrh6gbV',
      'n3xz2f+5SglhXC5Lp8Y2zvCN01M+wxhVJbAVx2m5mnfWclv5w1Mqm25fZifV+4UW',
      'B2jT3anL01l0URcX3D0wnS/EfuQfl+Mq23+d2GShxHZ6Zm7NcbwarPXnUX9LOFlP',
      '6psF5C1a2pkSAIAT5FMWpNm7jtCGuI0odYusr5ItRqhotIXSOcm66w4rZFknEPQr',
      'LR6gpLSALAvsqzKPimiwBzvbVG/uqYCdKEmRKzkMFTK8finHZY+BdfrkbzQzL/h7',
      'yrPkBkm5hXeGnaDqcYNT8HInVIhpE2SHYNEivmduD8SD3SD/wxvalqMZZsmqLnWt',
      'A95H4cRPAgMBAAECggEAYCl6x5kbFnoG1rJHWLjL4gi+ubLZ7Jc4vYD5Ci41AF3X',
      'ziktnim6iFvTFv7x8gkTvArJDWsICLJBTYIQREHYYkozzgIzyPeApIs3Wv8C12cS',
      'IopwJITbP56+zM+77hcJ26GCgA2Unp5CFuC/81WDiPi9kNo3Oh2CdD7D+90UJ/0W',
      'glplejFpEuhpU2URfKL4RckJQF/KxV+JX8FdIDhsJu54yemQdQKaF4psHkzwwgDo',
      'qc+yfp0Vb4bmwq3CKxqEoc1cpbJ5CHXXlAfISzUjlcuBzD/tW7BDtp7eDAcgRVAC',
      'XO6MX0QBcLYSC7SOD3R7zY9SIRCFDfBDxCjf0YcFMQKBgQD2+WG0fLwDXTrt68fe',
      'hQqVa2Xs25z2B2QGPxWqSFU8WNly/mZ1BW413f3De/O58vYi7icTNyVoScm+8hdv',
      '6PfD+LuRujdN1TuvPeyBTSvewQwf3IjN0Wh28mse36PwlBl+301C/x+ylxEDuJjK',
      'hZxCcocIaoQqtBC7ac8tNa9r4wKBgQDUfnJKf/QQSLJwwlJKQQGHi3MVm7c9PbwY',
      'eyIOY1s1NPluJDoYTZP4YLa/u2txwe2aHh9FhYMCPDAelqaSwaCLU9DsnKkQEA2A',
      'RR47fcagG6xK7O+N95iEa8I1oIy7os9MBoBMwRIZ6VYIxxTj8UMNSR+tu6MqV1Gg',
      'T5d0WDTJpQKBgCHyRSu5uV39AoyRS/eZ8cp36JqV1Q08FtOE+EVfi9evnrPfo9WR',
      '2YQt7yNfdjCo5IwIj/ZkLhAXlFNakz4el2+oUJ/HKLLaDEoaCNf883q6rh/zABrK',
      'HcG7sF2d/7qhoJ9/se7zgjfZ68zHIrkzhDbd5xGREnmMJoCcGo3sQyBhAoGAH3UQ',
      'qmLC2N5KPFMoJ4H0HgLQ6LQCrnhDLkScSBEBYaEUA/AtAYgKjcyTgVLXlyGkcRpg',
      'esRHHr+WSBD5W+R6ReYEmeKfTJdzyDdzQE9gZjdyjC0DUbsDwybIu3OnIef6VEDq',
      'IXK7oUZfzDDcsNn4mTDoFaoff5cpqFfgDgM43VkCgYBNHw11b+d+AQmaZS9QqIt7',
      'aF3FvwCYHV0jdv0Mb+Kc1bY4c0R5MFpzrTwVmdOerjuuA1+9b+0Hwo3nBZM4eaBu',
      'SOamA2hu2OJWCl9q8fLCT69KqWDjghhvFe7c6aJJGucwaA3Uz3eLcPqoaCarMiNH',
      'fMkTd7GabVourqIZdgvu1Q==',
      '-----END PRIVATE KEY-----',
    ].join('\n');
    const good =
      '550AF55A2904E7B9762352F8FB7FA235A9CB053AACB2D5FCB8CA48453CB2EE3619746C701ABF2D4CC67003471A187900B05AA812BD25ED05C675DFC8C97A24A7BF49BD6214992CAD766D05A9A2B57B74F26A737E0237B8B76C45F1F226A836D7CFBC75BA999BDBE48DBC09227AA46C88F21DCCBA7840141AD5A5D71FD122E6BD6AC3E564780DFE623FC1CA9B995A6037BF0BBD43B205A84AC5444F34202C05CE9113087176432476576DE6FFFF9A52EA57C08BE3EC2F49676CB8E12F762AC71FA3C321E00AC988910C85FF52F93825666CE0D40FFAA0592078919D4493F46D95CCF76364C6D57760DD0B64805F9AFC76A2365A5575CA301D5103F0EA76CB9A78';
    const corrupted = `${good.slice(0, -1)}9`;
    const synthetic =
      '4cbb988d6a46228379132b0b5f8c249b3860043848c93632fb982c807c7c82fffc7a9ef83f4908f890373ac181ffea6381e103bcaa27e65638b6ecebef38b59ed4226a9d12af675cfcb634d8c40e7a7aff';
    const rsa = rsaPrivateKey(pem);
    expect(rsa.decryptBytes(Buffer.from(good, 'hex')).toString('utf8')).toBe('Hello World');
    expect(rsa.decryptBytes(Buffer.from(corrupted, 'hex')).toString('hex')).toBe(synthetic);
    expect(referenceDecrypt(pem, Buffer.from(corrupted, 'hex')).toString('hex')).toBe(synthetic);
  });
});

describe('implicit rejection: malformed ciphertexts yield the synthetic message, never an error', () => {
  const message = Buffer.from(randomBytes(32).toString('base64'));
  const cases: [string, () => Buffer][] = [
    ['first byte not zero', () => rawCiphertext(Buffer.from(encoded(message)).fill(1, 0, 1))],
    ['block type 1 instead of 2', () => rawCiphertext(Buffer.concat([Buffer.from([0, 1]), encoded(message).subarray(2)]))],
    ['block type 0', () => rawCiphertext(Buffer.concat([Buffer.from([0, 0]), encoded(message).subarray(2)]))],
    ['no separator', () => rawCiphertext(Buffer.concat([Buffer.from([0, 2]), Buffer.alloc(k - 2, 0x11)]))],
    ['padding string of 7 bytes', () => rawCiphertext(Buffer.concat([Buffer.from([0, 2]), Buffer.alloc(7, 0x11), Buffer.from([0]), Buffer.alloc(k - 10, 0x41)]))],
    ['padding string of 0 bytes', () => rawCiphertext(Buffer.concat([Buffer.from([0, 2, 0]), Buffer.alloc(k - 3, 0x41)]))],
    ['zero ciphertext', () => Buffer.alloc(k)],
    ['all-FF ciphertext (above the modulus)', () => Buffer.alloc(k, 0xff)],
    ['one byte too long', () => Buffer.concat([Buffer.from([1]), rawCiphertext(encoded(message))])],
    ['random bytes', () => randomBytes(k)],
    ['a single byte', () => Buffer.from([7])],
  ];

  for (const [name, make] of cases) {
    it(`${name}: deterministic synthetic output of at most k - 11 bytes, the rule's own output`, () => {
      const c = make();
      const first = native.decryptBytes(c);
      expect(native.decryptBytes(c).equals(first)).toBe(true);
      expect(first.length).toBeLessThanOrEqual(k - 11);
      expect(first.equals(referenceDecrypt(keys.privateKeyPem, c))).toBe(true);
      expect(first.equals(message)).toBe(false);
      // another ciphertext, another synthetic message
      const other = Buffer.from(c);
      other[other.length - 1] = (other[other.length - 1] ?? 0) ^ 1;
      expect(native.decryptBytes(other).equals(first)).toBe(false);
    });
  }

  it('a ciphertext one byte short is read as its left-padded value', () => {
    let c = rawCiphertext(encoded(message));
    while (c[0] !== 0) c = rawCiphertext(Buffer.concat([encoded(message).subarray(0, 2), randomBytes(k - 3 - message.length).map((b) => b | 1), Buffer.from([0]), message]));
    expect(native.decryptBytes(c.subarray(1)).equals(message)).toBe(true);
  });

  it('the unpadding alone: good padding returns the message, bad the synthetic tail of the chosen length', () => {
    const synthetic = randomBytes(k);
    const lengths = Buffer.alloc(256, 0xff); // every candidate masked to >= k - 10: length 0
    lengths.writeUInt16BE(5, 100); // one candidate of 5 wins
    expect(unpadPkcs1Implicit(encoded(message), synthetic, lengths).equals(message)).toBe(true);
    const bad = Buffer.from(encoded(message));
    bad[1] = 3;
    expect(unpadPkcs1Implicit(bad, synthetic, lengths).equals(synthetic.subarray(k - 5))).toBe(true);
    expect(unpadPkcs1Implicit(bad, synthetic, Buffer.alloc(256, 0xff)).length).toBe(0);
  });

  it('input that is not base64, empty or too long is a DecryptError (public syntax, not padding)', () => {
    expect(() => native.decrypt('')).toThrow(DecryptError);
    expect(() => native.decrypt('not base64!')).toThrow(DecryptError);
    expect(() => native.decrypt('A'.repeat(4096))).toThrow(DecryptError);
  });
});

describe('connects whose B does not decrypt properly are refused with 4001', () => {
  type Server = Awaited<ReturnType<typeof startServer>>;
  let server: Server;
  let session: Session;
  let serverPublic: KeyObject;
  let size = 0;

  beforeAll(async () => {
    server = await startServer();
    session = await keyExchange(server.url);
    serverPublic = createPublicKey({ key: Buffer.from(server.keys.publicKey, 'base64'), format: 'der', type: 'spki' });
    size = rsaPrivateKey(server.keys.privateKeyPem).modulusBytes;
  });
  afterAll(async () => {
    await server.close();
    removeDir(server.dataDir);
  });

  /** A connect URL whose B is `b` and whose A is made under `key` (protocol §3 by hand). */
  function connectWith(key: Buffer, b: Buffer): string {
    const [, secret = ''] = server.socketKey.split(',');
    const u = randomUUID();
    const d = {};
    const s = createHmac('sha256', secret).update(`d=${JSON.stringify(d)}&t=${session.saltKey}&u=${u}`).digest('hex');
    const a = gcm(key, JSON.stringify({ d, u, t: session.saltKey, s }));
    const params = Buffer.from(JSON.stringify({ A: a, B: b.toString('base64') })).toString('base64');
    return `${server.socketUrl}?params=${encodeURIComponent(params)}`;
  }

  it('bad padding, zero, all-FF, short, long: 4001 "unauthorized", no frame, no server error', async () => {
    const raw = (em: Buffer): Buffer => publicEncrypt({ key: serverPublic, padding: constants.RSA_NO_PADDING }, em);
    const key = randomBytes(32);
    const keyText = Buffer.from(key.toString('base64'));
    const body = Buffer.concat([Buffer.alloc(size - 3 - keyText.length, 0x22), Buffer.from([0]), keyText]);
    // the same key with good padding is accepted: only the padding differs in the first two
    const welcomed = await TestSocket.open(connectWith(key, raw(Buffer.concat([Buffer.from([0, 2]), body]))), session);
    expect((await welcomed.next((m) => m.type === 60)).type).toBe(60);
    await welcomed.close();

    const bs = [
      raw(Buffer.concat([Buffer.from([0, 1]), body])),
      raw(Buffer.concat([Buffer.from([0, 2]), Buffer.alloc(7, 0x22), Buffer.from([0]), Buffer.alloc(size - 10 - keyText.length, 0x22), keyText])),
      raw(Buffer.concat([Buffer.from([0, 2]), Buffer.alloc(size - 2, 0x22)])),
      Buffer.alloc(size),
      Buffer.alloc(size, 0xff),
      Buffer.alloc(size - 20, 0x42),
      Buffer.alloc(size + 1, 0x01),
    ];
    for (const b of bs) {
      const socket = await TestSocket.open(connectWith(key, b), session);
      expect(await socket.closed).toEqual({ code: 4001, reason: 'unauthorized' });
      expect(socket.log).toEqual([]);
    }
    expect(server.errors).toEqual([]);
  });
});
