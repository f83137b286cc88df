import { describe, expect, it } from 'vitest';
import { DEFAULT_DEEP_LINKS } from '../options.js';
import { chatLink, groupLink, openLinkUrl } from './deep-links.js';

const opts = { ...DEFAULT_DEEP_LINKS, scheme: 'kefuapp', testScheme: 'kefuapptest', uatScheme: 'kefuappuat' };

describe('Deep link: one-to-one chat page (parameter identify) (spec §7)', () => {
  it('builds <scheme>://chat?identify=<id> with the value encoded', () => {
    expect(chatLink(opts, 'u 1/&x')).toBe('kefuapp://chat?identify=u%201%2F%26x');
    expect(chatLink(opts, '  42 ')).toBe('kefuapp://chat?identify=42');
  });
});

describe('Deep link: group chat page (parameter qrUrl) with test, uat and default production schemes (spec §7)', () => {
  const qr = 'https://kefu.example/g?id=1&k=2';
  it('uses the production scheme by default', () => {
    expect(groupLink(opts, qr)).toBe(`kefuapp://group?qrUrl=${encodeURIComponent(qr)}`);
  });
  it('uses the uat and test schemes for those builds', () => {
    expect(groupLink(opts, qr, 'uat')).toBe(`kefuappuat://group?qrUrl=${encodeURIComponent(qr)}`);
    expect(groupLink(opts, qr, 'test')).toBe(`kefuapptest://group?qrUrl=${encodeURIComponent(qr)}`);
  });
  it('refuses an unknown environment', () => {
    expect(() => groupLink(opts, qr, 'staging' as 'uat')).toThrow(/production, uat or test/);
  });
});

describe('Deep link: opening a given link directly (spec §7)', () => {
  it('builds <scheme>://open?url=<url>', () => {
    expect(openLinkUrl(opts, 'https://a.example/x?y=1#z')).toBe('kefuapp://open?url=https%3A%2F%2Fa.example%2Fx%3Fy%3D1%23z');
  });
});

describe('Deep links: bad input gets a clear error', () => {
  it('refuses blank values and invalid schemes', () => {
    expect(() => chatLink(opts, '  ')).toThrow(/identify must be a non-empty string/);
    expect(() => openLinkUrl(opts, undefined as unknown as string)).toThrow(/url must be a non-empty string/);
    expect(() => chatLink({ ...opts, scheme: 'bad scheme' }, '1')).toThrow(/not a valid URL scheme/);
    expect(() => groupLink({ ...opts, uatScheme: '' }, 'x', 'uat')).toThrow(/uat scheme/);
  });
});
