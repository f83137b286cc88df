// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import { applyAttention, attentionTitle, DOT_ONLY_ICON } from './attention.js';

const iconHref = (): string | null => document.querySelector('link[rel~="icon"]')?.getAttribute('href') ?? null;

beforeEach(() => {
  document.head.replaceChildren();
  document.title = '咨询客服';
});

describe('live signals: the hidden tab shows "(n) <title>" while messages are unread', () => {
  it('puts the count in front of the title, and nothing at 0', () => {
    expect(attentionTitle('Chat', 0)).toBe('Chat');
    expect(attentionTitle('Chat', 3)).toBe('(3) Chat');
    expect(attentionTitle('Chat', 120)).toBe('(99+) Chat');
  });

  it('counts up on the original title, and restores it once read', () => {
    applyAttention(document, '/favicon.svg', 1);
    expect(document.title).toBe('(1) 咨询客服');
    applyAttention(document, '/favicon.svg', 2);
    expect(document.title).toBe('(2) 咨询客服');
    applyAttention(document, '/favicon.svg', 0);
    expect(document.title).toBe('咨询客服');
  });

  it('keeps a title the page set meanwhile (a language change) as the new original', () => {
    applyAttention(document, '/favicon.svg', 1);
    document.title = 'Chat';
    applyAttention(document, '/favicon.svg', 2);
    expect(document.title).toBe('(2) Chat');
    applyAttention(document, '/favicon.svg', 0);
    expect(document.title).toBe('Chat');
  });
});

describe('live signals: the icon carries a dot while messages are unread', () => {
  it('dots the icon (the dot alone where it cannot be drawn), and restores the page icon once read', async () => {
    applyAttention(document, '/favicon.svg', 0);
    expect(iconHref()).toBe('/favicon.svg');
    applyAttention(document, '/favicon.svg', 1);
    await expect.poll(iconHref).toBe(DOT_ONLY_ICON); // happy-dom draws no canvas
    applyAttention(document, '/favicon.svg', 0);
    expect(iconHref()).toBe('/favicon.svg');
  });

  it('a dotted icon still being drawn when the count is read is never applied', async () => {
    const cancel = applyAttention(document, '/favicon.svg', 1);
    cancel();
    applyAttention(document, '/favicon.svg', 0);
    await new Promise((r) => setTimeout(r, 10));
    expect(iconHref()).toBe('/favicon.svg');
  });
});
