import { createDecipheriv, createHmac, generateKeyPairSync } from 'node:crypto';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { RSA_ENCRYPT_ERROR } from '../crypto/rsa.js';
import { buildConnectParams, buildSocketUrl, parseSocketKey } from './connect-params.js';
import { signConnectPayload } from './connect-signature.js';

interface JSEncryptCjs {
  setPrivateKey(pem: string): void;
  decrypt(b64: string): string | false;
}
// the CommonJS build of jsencrypt exports the constructor itself
const JSEncrypt = createRequire(import.meta.url)('jsencrypt') as new () => JSEncryptCjs;

const pair = generateKeyPairSync('rsa', { modulusLength: 1024, publicExponent: 0x10001 });
const publicKey = pair.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
const privatePem = pair.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
const secret = 'hmac,secret with a comma';
const socketKey = `${publicKey},${secret}`;

/** What the server does (protocol §3), written with node:crypto and jsencrypt only. */
function serverOpen(params: string): { d: unknown; u: string; t: string; s: string; K: Buffer } {
  const { A, B } = JSON.parse(Buffer.from(params, 'base64').toString('utf8')) as { A: string; B: string };
  const rsa = new JSEncrypt();
  rsa.setPrivateKey(privatePem);
  const keyString = rsa.decrypt(B);
  if (keyString === false) throw new Error('B did not decrypt');
  const K = Buffer.from(keyString, 'base64');
  const all = Buffer.from(A, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', K, all.subarray(0, 12));
  decipher.setAuthTag(all.subarray(all.length - 16));
  const json = Buffer.concat([decipher.update(all.subarray(12, all.length - 16)), decipher.final()]).toString('utf8');
  return { ...(JSON.parse(json) as { d: unknown; u: string; t: string; s: string }), K };
}

describe('protocol §3: params = base64(JSON {A, B}); the server can open it with its private key', () => {
  it('B carries base64(K), A = GCM(K, {d, u, t, s}) with a valid HMAC', async () => {
    const data = { role: 'visitor', mchId: 1001, platformId: 2, name: '张三' };
    const out = await buildConnectParams({ socketKey, clientId: 'client-1', saltKey: 'salt-1', data });
    const opened = serverOpen(out.params);
    expect(opened.K.equals(Buffer.from(out.key))).toBe(true);
    expect(out.key).toHaveLength(32);
    expect(opened.d).toEqual(data);
    expect(opened.u).toBe('client-1');
    expect(opened.t).toBe('salt-1');
    const message = `d=${JSON.stringify(data)}&t=salt-1&u=client-1`;
    expect(opened.s).toBe(createHmac('sha256', secret).update(message).digest('hex'));
    expect(JSON.parse(Buffer.from(out.params, 'base64').toString())).toEqual({ A: out.A, B: out.B });
  });
  it('d defaults to an empty object, and the payload keys are d, u, t, s', async () => {
    const out = await buildConnectParams({ socketKey, clientId: 'c', saltKey: 's' });
    const opened = serverOpen(out.params);
    expect(opened.d).toEqual({});
    expect(opened.s).toBe(createHmac('sha256', secret).update('d={}&t=s&u=c').digest('hex'));
  });
  it('draws a fresh key K every time', async () => {
    const a = await buildConnectParams({ socketKey, clientId: 'c', saltKey: 's' });
    const b = await buildConnectParams({ socketKey, clientId: 'c', saltKey: 's' });
    expect(Buffer.from(a.key).equals(Buffer.from(b.key))).toBe(false);
  });
});

describe('s = HMAC over the sorted key=value pairs (strings as they are, others as JSON)', () => {
  it('signs "d=<json>&t=<t>&u=<u>"', () => {
    const d = { b: [1, 'x'], a: null };
    expect(signConnectPayload('k', { d, t: 'tt', u: 'uu' })).toBe(
      createHmac('sha256', 'k').update(`d=${JSON.stringify(d)}&t=tt&u=uu`).digest('hex'),
    );
  });
  it('a string d is used as it is, not JSON-quoted', () => {
    expect(signConnectPayload('k', { d: 'raw', t: 't', u: 'u' })).toBe(createHmac('sha256', 'k').update('d=raw&t=t&u=u').digest('hex'));
  });
});

describe('the public key is the first comma-separated part of the key', () => {
  it('splits at the first comma only', () => {
    expect(parseSocketKey('PK,se,cr,et')).toEqual({ publicKey: 'PK', secret: 'se,cr,et' });
    expect(parseSocketKey(' PK , s ')).toEqual({ publicKey: 'PK', secret: 's' });
  });
  it.each(['', 'no-comma', ',secret', 'pk,', ' , '])('rejects %j with a clear error', (bad) => {
    expect(() => parseSocketKey(bad)).toThrow(/Invalid socketKey/);
  });
  it('rejects a non-string', () => {
    expect(() => parseSocketKey(undefined as unknown as string)).toThrow(/Invalid socketKey/);
  });
});

describe('bad connect input gets a clear error', () => {
  it('requires a client id and a salt key', async () => {
    await expect(buildConnectParams({ socketKey, clientId: '', saltKey: 's' })).rejects.toThrow(/clientId/);
    await expect(buildConnectParams({ socketKey, clientId: 'c', saltKey: '' })).rejects.toThrow(/saltKey/);
  });
  it('fails with the RSA error when the public key is unusable', async () => {
    await expect(buildConnectParams({ socketKey: 'garbage,secret', clientId: 'c', saltKey: 's' })).rejects.toThrow(RSA_ENCRYPT_ERROR);
  });
});

describe('Connect to <socketUrl>?params=<encodeURIComponent(params)>', () => {
  it('URI-encodes params once', () => {
    expect(buildSocketUrl('wss://h/ws', 'a+b/c==')).toBe('wss://h/ws?params=a%2Bb%2Fc%3D%3D');
  });
  it("uses '&' when the url already has a query", () => {
    expect(buildSocketUrl('wss://h/ws?x=1', 'p')).toBe('wss://h/ws?x=1&params=p');
    expect(buildSocketUrl('wss://h/ws?', 'p')).toBe('wss://h/ws?params=p');
    expect(buildSocketUrl('wss://h/ws?x=1&', 'p')).toBe('wss://h/ws?x=1&params=p');
  });
  it('decodes back to the same params', async () => {
    const out = await buildConnectParams({ socketKey, clientId: 'c', saltKey: 's' });
    const url = new URL(buildSocketUrl('ws://localhost:1/ws', out.params));
    expect(url.searchParams.get('params')).toBe(out.params);
  });
});
