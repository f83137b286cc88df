/**
 * Protocol §3b.1 and §3b.3 as pure functions (time injected): the identity token's checks, the
 * merchant secrets of `MERCHANT_SECRETS`, their sealing at rest, and the demo link.
 */
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { demoIdentityLink, DEMO_MEMBER } from '../src/identity/demo-identity.js';
import { signIdentityToken, verifyIdentityToken } from '../src/identity/identity-token.js';
import {
  DEMO_MERCHANT_SECRET,
  MerchantSecretsError,
  parseMerchantSecrets,
  sealingKeyOf,
  sealSecret,
  unsealSecret,
} from '../src/identity/merchant-secrets.js';

const NOW = 1_790_000_000_000;
const SECRET = 'a-merchant-secret-0123456789abcdefghijklm';
const OLD = 'an-older-merchant-secret-0123456789abcdef';
const key = (s: string): Uint8Array => new TextEncoder().encode(s);
const iat = Math.floor(NOW / 1000);

function hs256(claims: Record<string, unknown>, secret = SECRET): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(key(secret));
}

describe('§3b.1 the token: HS256 under one of the merchant\'s secrets, mch, sub, exp (≤ 24 h), iat', () => {
  it('accepts a good token under either secret of a rotation, with its optional claims', async () => {
    const token = await signIdentityToken({ mchId: 'M1', sub: 'u-1', ttlS: 600, name: 'Ann', email: 'ann@x.test', avatar: 'https://x.test/a.png' }, OLD, NOW);
    expect(await verifyIdentityToken(token, 'M1', [SECRET, OLD], NOW)).toEqual({
      ok: true,
      member: { mchId: 'M1', sub: 'u-1', name: 'Ann', email: 'ann@x.test', avatar: 'https://x.test/a.png', expiresAt: (iat + 600) * 1000 },
    });
  });

  it.each([
    ['sub missing', { mch: 'M1', iat, exp: iat + 60 }],
    ['sub empty', { mch: 'M1', sub: '', iat, exp: iat + 60 }],
    ['sub of 129 characters', { mch: 'M1', sub: 'x'.repeat(129), iat, exp: iat + 60 }],
    ['exp missing', { mch: 'M1', sub: 'u', iat }],
    ['exp 25 h ahead', { mch: 'M1', sub: 'u', iat, exp: iat + 25 * 3600 }],
    ['iat missing', { mch: 'M1', sub: 'u', exp: iat + 60 }],
    ['iat in the future', { mch: 'M1', sub: 'u', iat: iat + 3600, exp: iat + 7200 }],
    ['a name of 300 characters', { mch: 'M1', sub: 'u', iat, exp: iat + 60, name: 'n'.repeat(300) }],
    ['an avatar that is no http(s) URL', { mch: 'M1', sub: 'u', iat, exp: iat + 60, avatar: 'javascript:alert(1)' }],
    ['an e-mail that is a number', { mch: 'M1', sub: 'u', iat, exp: iat + 60, email: 5 }],
  ])('refuses %s: invalid', async (_name, claims) => {
    expect(await verifyIdentityToken(await hs256(claims), 'M1', [SECRET], NOW)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('expired (past exp beyond the 60 s tolerance): expired; within the tolerance: accepted', async () => {
    expect(await verifyIdentityToken(await hs256({ mch: 'M1', sub: 'u', iat: iat - 600, exp: iat - 61 }), 'M1', [SECRET], NOW)).toEqual({ ok: false, reason: 'expired' });
    expect((await verifyIdentityToken(await hs256({ mch: 'M1', sub: 'u', iat: iat - 600, exp: iat - 30 }), 'M1', [SECRET], NOW)).ok).toBe(true);
  });

  it('an expired token under a wrong secret is invalid, not expired (the signature is checked first)', async () => {
    expect(await verifyIdentityToken(await hs256({ mch: 'M1', sub: 'u', iat: iat - 600, exp: iat - 300 }, 'wrong-secret-0123456789abcdefghijklmnop'), 'M1', [SECRET], NOW)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('another merchant\'s token, or a merchant without a secret: merchant', async () => {
    const token = await hs256({ mch: 'M2', sub: 'u', iat, exp: iat + 60 });
    expect(await verifyIdentityToken(token, 'M1', [SECRET], NOW)).toEqual({ ok: false, reason: 'merchant' });
    expect(await verifyIdentityToken(await hs256({ mch: 'M1', sub: 'u', iat, exp: iat + 60 }), 'M1', [], NOW)).toEqual({ ok: false, reason: 'merchant' });
  });

  it('alg none and HS512 are refused even with the right secret; oversize and malformed tokens too', async () => {
    const body = Buffer.from(JSON.stringify({ mch: 'M1', sub: 'u', iat, exp: iat + 60 })).toString('base64url');
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${body}.`;
    const hs512 = await new SignJWT({ mch: 'M1', sub: 'u', iat, exp: iat + 60 }).setProtectedHeader({ alg: 'HS512' }).sign(key(SECRET));
    for (const token of [none, hs512, 'x'.repeat(5000), 'a.b.c', '']) {
      expect(await verifyIdentityToken(token, 'M1', [SECRET], NOW)).toEqual({ ok: false, reason: 'invalid' });
    }
  });
});

describe('merchant secrets: MERCHANT_SECRETS, sealing at rest', () => {
  it('parses M1:<s>,M1:<s2>,M2:<s3>: a merchant named twice has two secrets', () => {
    expect(parseMerchantSecrets(`M1:${SECRET}, M1:${OLD},M2:${SECRET}`)).toEqual([
      { mchId: 'M1', secret: SECRET },
      { mchId: 'M1', secret: OLD },
      { mchId: 'M2', secret: SECRET },
    ]);
    expect(parseMerchantSecrets('')).toEqual([]);
  });

  it('refuses short secrets and malformed entries without quoting the secret', () => {
    expect(() => parseMerchantSecrets('M1:short-secret')).toThrow(MerchantSecretsError);
    expect(() => parseMerchantSecrets('M1:short-secret')).not.toThrow(/short-secret/);
    expect(() => parseMerchantSecrets(SECRET)).toThrow(/entry 1 is not <mchId>:<secret>/);
    expect(() => loadConfig({ MERCHANT_SECRETS: 'M1:x' })).toThrow(/MERCHANT_SECRETS entry 1 \(M1\)/);
    expect(() => loadConfig({ MERCHANT_SECRETS_KEY: 'abcd' })).toThrow(/MERCHANT_SECRETS_KEY must be 32 bytes/);
  });

  it('seals with AES-256-GCM under the key (fresh nonce each time) and opens only under that key', () => {
    const k1 = sealingKeyOf('', 'pem one');
    const k2 = sealingKeyOf('11'.repeat(32), 'pem one');
    expect(k1.equals(sealingKeyOf('', 'pem one'))).toBe(true);
    expect(k1.equals(sealingKeyOf('', 'pem two'))).toBe(false);
    const a = sealSecret(k1, SECRET);
    expect(a).not.toContain(SECRET);
    expect(sealSecret(k1, SECRET)).not.toBe(a);
    expect(unsealSecret(k1, a)).toBe(SECRET);
    expect(() => unsealSecret(k2, a)).toThrow(/sealed under another key/);
    const [v, id, body = ''] = a.split('.');
    const flipped = Buffer.from(body, 'base64');
    flipped[20] = (flipped[20] ?? 0) ^ 1;
    expect(() => unsealSecret(k1, `${v}.${id}.${flipped.toString('base64')}`)).toThrow(/does not decrypt/);
  });
});

describe('the demo merchant (loopback only)', () => {
  it('gets the public demo secret only on loopback and without MERCHANT_SECRETS', () => {
    expect(loadConfig({}).identity.demoMerchantSecret).toBe(true);
    expect(loadConfig({ MERCHANT_SECRETS: `M1001:${SECRET}` }).identity.demoMerchantSecret).toBe(false);
    expect(loadConfig({ HOST: '0.0.0.0', AGENTS: 'a:password1' }).identity.demoMerchantSecret).toBe(false);
    expect(loadConfig({}, { host: '0.0.0.0' }).identity.demoMerchantSecret).toBe(false);
  });

  it('the printed link carries a 1 h token for the demo member that the demo secret verifies', async () => {
    const link = new URL(await demoIdentityLink('http://127.0.0.1:8080', '/kefu/abc', 3600, NOW));
    expect(link.pathname).toBe('/kefu/abc');
    const token = link.searchParams.get('identity') ?? '';
    expect(await verifyIdentityToken(token, 'M1001', [DEMO_MERCHANT_SECRET], NOW)).toMatchObject({ ok: true, member: { sub: DEMO_MEMBER.sub, expiresAt: (iat + 3600) * 1000 } });
  });
});
