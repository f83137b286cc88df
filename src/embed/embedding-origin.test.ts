import { describe, expect, it } from 'vitest';
import { embeddingOrigin, type EmbeddingWindow } from './embedding-origin.js';

describe("embeddingOrigin: the framing page's origin, for targeting outbound postMessage (SECURITY.md)", () => {
  const framed = (extra: Omit<EmbeddingWindow, 'parent'>): EmbeddingWindow => ({ parent: {}, ...extra });

  it('is null when not framed, whatever the referrer says', () => {
    const top: EmbeddingWindow = { document: { referrer: 'https://shop.example/' }, get parent() { return top; } };
    expect(embeddingOrigin(top)).toBeNull();
    expect(embeddingOrigin({ parent: null, document: { referrer: 'https://shop.example/' } })).toBeNull();
    expect(embeddingOrigin(undefined)).toBeNull();
  });

  it('reads the nearest ancestor origin first, then the origin of the referrer', () => {
    expect(embeddingOrigin(framed({ location: { ancestorOrigins: { length: 1, 0: 'https://a.example' } }, document: { referrer: 'https://b.example/x' } }))).toBe('https://a.example');
    expect(embeddingOrigin(framed({ location: { ancestorOrigins: { length: 0 } }, document: { referrer: 'https://b.example/x?y#z' } }))).toBe('https://b.example');
    expect(embeddingOrigin(framed({ document: { referrer: 'http://localhost:3000/shop' } }))).toBe('http://localhost:3000');
  });

  it('is null for an unknown or non-http origin (no referrer, sandboxed parent, file:, javascript:)', () => {
    for (const referrer of ['', 'null', 'file:///x.html', 'javascript:alert(1)', 'about:blank', 'garbage']) {
      expect(embeddingOrigin(framed({ document: { referrer } })), referrer).toBeNull();
    }
    expect(embeddingOrigin(framed({ location: { ancestorOrigins: { length: 1, 0: 'null' } }, document: { referrer: 'https://b.example/' } }))).toBeNull();
  });

  it('a parent that throws on access (cross-origin oddities) counts as not framed', () => {
    const win = { get parent(): unknown { throw new Error('blocked'); }, document: { referrer: 'https://a.example/' } };
    expect(embeddingOrigin(win)).toBeNull();
  });
});
