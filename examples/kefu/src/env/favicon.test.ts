// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { DEFAULT_FAVICON, faviconFor, setFavicon } from './favicon.js';

describe('spec §2: "The page icon is the merchant\'s kefuAvatar2, or a built-in default image when that is missing"', () => {
  it('uses kefuAvatar2 when it is an http(s) URL or a path of this site', () => {
    expect(faviconFor({ kefuAvatar2: 'https://cdn.example.com/a.png' })).toBe('https://cdn.example.com/a.png');
    expect(faviconFor({ kefuAvatar2: '/files/a.png' })).toBe('/files/a.png');
    expect(faviconFor({ kefuAvatar2: 'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=' })).toBe('data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=');
  });

  it('falls back to the default when missing or unsafe', () => {
    expect(faviconFor(null)).toBe(DEFAULT_FAVICON);
    expect(faviconFor({})).toBe(DEFAULT_FAVICON);
    expect(faviconFor({ kefuAvatar2: '' })).toBe(DEFAULT_FAVICON);
    expect(faviconFor({ kefuAvatar2: 'javascript:alert(1)' })).toBe(DEFAULT_FAVICON);
    expect(faviconFor({ kefuAvatar2: '//evil.example/x.png' })).toBe(DEFAULT_FAVICON);
    expect(faviconFor({ kefuAvatar2: 'data:text/html;base64,PHNjcmlwdD4=' })).toBe(DEFAULT_FAVICON);
  });

  it('sets the icon link of the document, creating it when missing', () => {
    document.head.replaceChildren();
    setFavicon(document, '/files/a.png');
    const link = document.querySelector('link[rel="icon"]');
    expect(link?.getAttribute('href')).toBe('/files/a.png');
    setFavicon(document, DEFAULT_FAVICON);
    expect(document.querySelectorAll('link[rel="icon"]')).toHaveLength(1);
    expect(document.querySelector('link[rel="icon"]')?.getAttribute('href')).toBe(DEFAULT_FAVICON);
  });
});
