import { describe, expect, it } from 'vitest';
import { formatSize, usableImageUrl, usableUrl } from './message-body.js';
import { FAIL_TEXT } from './message-row.js';
import { translateTarget } from './translate-hint.js';

describe('security: only http(s) URLs or paths of this site are loaded or linked', () => {
  it('accepts http(s) and site paths, refuses the rest', () => {
    expect(usableUrl('https://cdn.example.com/a.png')).toBe('https://cdn.example.com/a.png');
    expect(usableUrl('/files/a.png')).toBe('/files/a.png');
    for (const bad of ['javascript:alert(1)', 'data:text/html,x', '//evil.example/a', '/\\evil', 'vbscript:x', '', 42, null]) {
      expect(usableUrl(bad)).toBeNull();
    }
  });
});

describe('security: images may also be base64 image data URLs, never anything else', () => {
  it('accepts data:image/... base64 and refuses other data URLs', () => {
    expect(usableImageUrl('data:image/png;base64,iVBORw0KGgo=')).toBe('data:image/png;base64,iVBORw0KGgo=');
    expect(usableImageUrl('https://cdn.example.com/a.png')).toBe('https://cdn.example.com/a.png');
    expect(usableImageUrl('data:text/html;base64,PHNjcmlwdD4=')).toBeNull();
    expect(usableImageUrl('data:image/svg+xml,<svg onload=alert(1)>')).toBeNull();
    expect(usableImageUrl(`data:image/png;base64,${'A'.repeat(100_001)}`)).toBeNull();
  });
});

describe('spec §4: "A failed item shows an error mark and its message"', () => {
  it('names the spec text of each refusal reason, and "send failed" for any other', () => {
    expect(FAIL_TEXT['too-frequent']).toBe('sendTooFrequent');
    expect(FAIL_TEXT['blank']).toBe('blankMessage');
    expect(FAIL_TEXT['network']).toBe('networkError');
    expect(FAIL_TEXT['something-new']).toBeUndefined();
  });

  it('shows file sizes readably', () => {
    expect(formatSize(512)).toBe('512 B');
    expect(formatSize(2048)).toBe('2.0 KB');
    expect(formatSize(5 * 1024 * 1024)).toBe('5.0 MB');
    expect(formatSize(Number.NaN)).toBe('');
  });
});

describe('spec §9: translation targets the interface language', () => {
  it('maps the Chinese variants to their locales', () => {
    expect(translateTarget('zh')).toBe('zh-CN');
    expect(translateTarget('zh-Hant')).toBe('zh-TW');
    expect(translateTarget('vi')).toBe('vi');
    expect(translateTarget('')).toBe('en-US');
  });
});
