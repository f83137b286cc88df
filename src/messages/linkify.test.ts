import { describe, expect, it } from 'vitest';
import { isSafeUrl, linkify, messageTokens, type ContentToken, type LinkToken } from './linkify.js';

/** Every link is safe and shows its literal text; the tokens join back to the input. */
function expectSafe(input: string, tokens: readonly (LinkToken | ContentToken)[]): void {
  expect(tokens.map((t) => t.text).join('')).toBe(input);
  for (const t of tokens) {
    expect(['text', 'link', 'emoji']).toContain(t.type);
    if (t.type === 'link') {
      expect(isSafeUrl(t.href)).toBe(true);
      expect(input).toContain(t.text);
      expect(t.href === t.text || t.href === `https://${t.text}`).toBe(true);
    }
  }
}

describe('isSafeUrl: links open http and https only', () => {
  it('accepts absolute http and https URLs', () => {
    for (const ok of ['http://a.com', 'https://a.com/x?y=1#z', 'HTTPS://A.COM/', 'http://localhost:3000/p', 'http://[::1]:8080/', 'https://例子.测试/']) {
      expect(isSafeUrl(ok), ok).toBe(true);
    }
  });

  it('rejects script, data and other schemes, protocol-relative tricks and control characters', () => {
    const bad = [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      'vbscript:msgbox(1)',
      'data:text/html,<script>alert(1)</script>',
      '//evil.com',
      '/relative',
      'http:evil.com',
      'http:/evil.com',
      'http:\\\\evil.com',
      'https:///evil.com',
      'http://a.com\u0000.evil.com',
      'http://a.com/\nx',
      'http://a.com/ x',
      'http://a.com\u200b/',
      'http://user:pass@evil.com',
      'http://good.com@evil.com',
      'ftp://a.com',
      'http://',
      '',
    ];
    for (const url of bad) expect(isSafeUrl(url), JSON.stringify(url)).toBe(false);
    expect(isSafeUrl(undefined as never)).toBe(false);
  });
});

describe('linkify: http(s) and www. addresses become links, never HTML', () => {
  it('finds links inside text', () => {
    expect(linkify('see https://a.com/x?q=1 now')).toEqual([
      { type: 'text', text: 'see ' },
      { type: 'link', text: 'https://a.com/x?q=1', href: 'https://a.com/x?q=1' },
      { type: 'text', text: ' now' },
    ]);
  });

  it('opens www. links as https', () => {
    expect(linkify('go www.example.com')).toEqual([
      { type: 'text', text: 'go ' },
      { type: 'link', text: 'www.example.com', href: 'https://www.example.com' },
    ]);
  });

  it('does not take a www. glued to a word or without a domain', () => {
    expect(linkify('awww.example.com')).toEqual([{ type: 'text', text: 'awww.example.com' }]);
    expect(linkify('www.')).toEqual([{ type: 'text', text: 'www.' }]);
    expect(linkify('www.example')).toEqual([{ type: 'text', text: 'www.example' }]);
  });

  it('trims trailing punctuation but keeps balanced parentheses', () => {
    expect(linkify('(see http://a.com/x).')[1]).toEqual({ type: 'link', text: 'http://a.com/x', href: 'http://a.com/x' });
    expect(linkify('http://a.com/wiki/A_(b), ok')[0]).toEqual({ type: 'link', text: 'http://a.com/wiki/A_(b)', href: 'http://a.com/wiki/A_(b)' });
    expect(linkify('Is it http://a.com?!')[1]).toEqual({ type: 'link', text: 'http://a.com', href: 'http://a.com' });
  });

  it('ends a link at CJK text and full-width punctuation', () => {
    expect(linkify('请访问http://a.com/p，谢谢')).toEqual([
      { type: 'text', text: '请访问' },
      { type: 'link', text: 'http://a.com/p', href: 'http://a.com/p' },
      { type: 'text', text: '，谢谢' },
    ]);
  });

  it('finds several links', () => {
    const tokens = linkify('http://a.com and https://b.com');
    expect(tokens.filter((t) => t.type === 'link').map((t) => t.text)).toEqual(['http://a.com', 'https://b.com']);
  });

  it('leaves text without links as one text token', () => {
    expect(linkify('no links here')).toEqual([{ type: 'text', text: 'no links here' }]);
    expect(linkify('')).toEqual([]);
  });
});

describe('XSS corpus: only text tokens, or links with a safe href and the literal text', () => {
  const corpus = [
    '<img src=x onerror=alert(1)>',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(document.cookie)',
    'http://a.com/"><script>alert(1)</script>',
    "http://a.com/'onmouseover='alert(1)",
    'data:text/html,<script>alert(1)</script>',
    'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
    'vbscript:msgbox(1)',
    '<a href="javascript:alert(1)">x</a>',
    '//evil.com/x',
    'http://evil.com\\@good.com',
    'https://good.com@evil.com/',
    'http://a.com/<svg/onload=alert(1)>',
    'www.a.com/"onclick="alert(1)',
    '\u0000http://a.com\u0001',
    'javascript://www.a.com/%0aalert(1)',
    'http://a.com/`${alert(1)}`',
  ];

  for (const input of corpus) {
    it(JSON.stringify(input), () => {
      const tokens = linkify(input);
      expectSafe(input, tokens);
      expectSafe(input, messageTokens({ type: 100, dataContent: input }));
      for (const t of tokens) if (t.type === 'link') expect(t.href).not.toMatch(/[<>"'`\s]/);
    });
  }

  it('cuts a link before markup', () => {
    expect(linkify('http://a.com/"><script>')).toEqual([
      { type: 'link', text: 'http://a.com/', href: 'http://a.com/' },
      { type: 'text', text: '"><script>' },
    ]);
  });

  it('never links a script URL, whatever its case', () => {
    expect(linkify('JaVaScRiPt:alert(1)')).toEqual([{ type: 'text', text: 'JaVaScRiPt:alert(1)' }]);
  });
});

describe('"Messages of type 100 or 200 have links made clickable"', () => {
  it('combines links, emoji and text for type 100', () => {
    expect(messageTokens({ type: 100, dataContent: 'hi face[微笑] https://a.com' })).toEqual([
      { type: 'text', text: 'hi ' },
      { type: 'emoji', name: '微笑', index: 0, text: 'face[微笑]' },
      { type: 'text', text: ' ' },
      { type: 'link', text: 'https://a.com', href: 'https://a.com' },
    ]);
  });

  it('makes links clickable for type 200 too', () => {
    expect(messageTokens({ type: 200, dataContent: 'www.a.com' })).toEqual([{ type: 'link', text: 'www.a.com', href: 'https://www.a.com' }]);
  });

  it('does not parse emoji inside links', () => {
    expect(messageTokens({ type: 100, dataContent: 'http://a.com/face(OK)' })).toEqual([
      { type: 'link', text: 'http://a.com/face(OK)', href: 'http://a.com/face(OK)' },
    ]);
  });

  it('does not let a link swallow an emoji written right after it', () => {
    expect(messageTokens({ type: 100, dataContent: 'http://a.com/face[微笑]' })).toEqual([
      { type: 'link', text: 'http://a.com/', href: 'http://a.com/' },
      { type: 'emoji', name: '微笑', index: 0, text: 'face[微笑]' },
    ]);
  });

  it('gives other types one text token of dataContent', () => {
    expect(messageTokens({ type: 101, dataContent: 'https://a.com/x.png' })).toEqual([{ type: 'text', text: 'https://a.com/x.png' }]);
    expect(messageTokens({ type: 999, dataContent: 'face[微笑]' })).toEqual([{ type: 'text', text: 'face[微笑]' }]);
  });

  it('gives no tokens for empty or missing content', () => {
    expect(messageTokens({ type: 100 })).toEqual([]);
    expect(messageTokens({ type: 100, dataContent: 5 as never })).toEqual([]);
  });
});
