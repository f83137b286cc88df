// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isCharacterKey, NON_CHARACTER_KEYS } from './keys.js';
import { applyLayout, HAIRLINE_CLASS, rootFontSize, usesHairlines } from './layout.js';
import { distanceFromBottom, scrollToBottom, type ScrollContainer } from './scroll.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('layout: "root font size is 1/10 of viewport width"', () => {
  it('a phone gets a tenth of its width', () => {
    expect(rootFontSize(375)).toBe(37.5);
    expect(rootFontSize(414)).toBeCloseTo(41.4);
  });

  it('"caps width at 710, scales by 0.68, floors at 375, caps unit at 49"', () => {
    expect(rootFontSize(700)).toBe(49); // 70 capped at 49
    expect(rootFontSize(720)).toBeCloseTo(48.96); // 720 * 0.68 / 10
    expect(rootFontSize(1920)).toBe(49);
    expect(rootFontSize(0)).toBe(37.5);
    expect(rootFontSize(Number.NaN)).toBe(37.5);
  });

  it('"device pixel ratio 2 or higher enables a hairline-border class"', () => {
    expect(usesHairlines(1)).toBe(false);
    expect(usesHairlines(1.5)).toBe(false);
    expect(usesHairlines(2)).toBe(true);
    expect(usesHairlines(3)).toBe(true);
  });

  it('applyLayout sets the root font size and class, follows resizes, and stops when disposed', () => {
    const root = document.documentElement;
    const listeners = new Map<string, () => void>();
    const win = {
      innerWidth: 375,
      devicePixelRatio: 2,
      document,
      addEventListener: (t: string, l: () => void) => listeners.set(t, l),
      removeEventListener: (t: string) => listeners.delete(t),
    };
    const dispose = applyLayout(win);
    expect(root.style.fontSize).toBe('37.5px');
    expect(root.classList.contains(HAIRLINE_CLASS)).toBe(true);
    win.innerWidth = 400;
    win.devicePixelRatio = 1;
    listeners.get('resize')!();
    expect(root.style.fontSize).toBe('40px');
    expect(root.classList.contains(HAIRLINE_CLASS)).toBe(false);
    dispose();
    expect(listeners.size).toBe(0);
  });
});

describe('non-character keys (spec §9)', () => {
  it('lists arrows, Enter, Escape, Tab, modifiers, Home, End, PageUp, PageDown, F1 to F12', () => {
    for (const k of ['ArrowUp', 'ArrowLeft', 'Enter', 'Escape', 'Tab', 'Shift', 'Control', 'Alt', 'Meta', 'Home', 'End', 'PageUp', 'PageDown', 'F1', 'F12']) {
      expect(NON_CHARACTER_KEYS.has(k)).toBe(true);
    }
    expect(NON_CHARACTER_KEYS.has('F13')).toBe(false);
  });

  it('characters count as typing; shortcuts and control keys do not', () => {
    expect(isCharacterKey({ key: 'a' })).toBe(true);
    expect(isCharacterKey({ key: '你' })).toBe(true);
    expect(isCharacterKey({ key: 'Enter' })).toBe(false);
    expect(isCharacterKey({ key: 'c', ctrlKey: true })).toBe(false);
    expect(isCharacterKey({ key: '' })).toBe(false);
  });
});

/** A {@link container} with scroll events: `scrollTo` moves the view and emits one. */
function scrollingContainer(scrollHeight: number, clientHeight: number, scrollTop: number): ReturnType<typeof container> & { listeners: Set<() => void>; scrollTo(top: number): void } {
  const listeners = new Set<() => void>();
  return Object.assign(container(scrollHeight, clientHeight, scrollTop), {
    listeners,
    addEventListener: (_type: 'scroll', listener: () => void) => void listeners.add(listener),
    removeEventListener: (_type: 'scroll', listener: () => void) => void listeners.delete(listener),
    scrollTo(this: ScrollContainer, top: number) {
      this.scrollTop = top;
      for (const listener of listeners) listener();
    },
  });
}

/** A scroll container that clamps scrollTop like a browser does. */
function container(scrollHeight: number, clientHeight: number, scrollTop: number): ScrollContainer & { scrollHeight: number } {
  let top = scrollTop;
  return {
    scrollHeight,
    clientHeight,
    get scrollTop() {
      return top;
    },
    set scrollTop(v: number) {
      top = Math.min(Math.max(0, v), this.scrollHeight - this.clientHeight);
    },
  };
}

describe('scroll to bottom: "when under 400 px from the bottom or forced; retries every 100 ms"', () => {
  it('follows new content when the reader is under 400 px from the bottom', () => {
    const el = container(2000, 500, 1150); // 350 px from the bottom
    expect(scrollToBottom(el).scrolled).toBe(true);
    expect(distanceFromBottom(el)).toBe(0);
  });

  it('leaves a reader who scrolled up (400 px or more) where they are, unless forced', () => {
    const el = container(2000, 500, 1100); // exactly 400 px
    expect(scrollToBottom(el).scrolled).toBe(false);
    expect(el.scrollTop).toBe(1100);
    expect(scrollToBottom(el, { force: true }).scrolled).toBe(true);
    expect(distanceFromBottom(el)).toBe(0);
  });

  it('retries every 100 ms while the content grows, then stops', () => {
    vi.useFakeTimers();
    const el = container(1000, 500, 500);
    scrollToBottom(el, { force: true });
    el.scrollHeight = 1300; // an image loaded
    vi.advanceTimersByTime(99);
    expect(distanceFromBottom(el)).toBe(300);
    vi.advanceTimersByTime(1);
    expect(distanceFromBottom(el)).toBe(0);
    vi.advanceTimersByTime(300);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('stops retrying when the reader scrolls up during the retries (issue 23: pulled back to the bottom)', () => {
    vi.useFakeTimers();
    const el = container(1000, 500, 500);
    scrollToBottom(el, { force: true });
    vi.advanceTimersByTime(100); // at the bottom: a retry that changes nothing
    el.scrollTop = 100; // the reader scrolls up to read older messages
    el.scrollHeight = 1300; // and older rows or a late image grow the content meanwhile
    vi.advanceTimersByTime(1_000);
    expect(el.scrollTop).toBe(100);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('keeps following content that grows while the reader stays at the bottom', () => {
    vi.useFakeTimers();
    const el = container(1000, 500, 500);
    scrollToBottom(el, { force: true });
    for (const height of [1100, 1250, 1400]) {
      el.scrollHeight = height;
      vi.advanceTimersByTime(100);
      expect(distanceFromBottom(el)).toBe(0);
    }
  });

  it('stops retrying when a scroll event shows the reader moving up, after the list itself had followed new rows', () => {
    vi.useFakeTimers();
    const el = scrollingContainer(500, 500, 0); // the first rows do not fill the view yet
    scrollToBottom(el, { force: true });
    vi.advanceTimersByTime(100);
    el.scrollHeight = 1424; // more rows: the list keeps itself at the bottom (a scroll event)
    el.scrollTo(924);
    el.scrollTo(0); // the reader scrolls up before the next retry
    vi.advanceTimersByTime(1_000);
    expect(el.scrollTop).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
    expect(el.listeners.size).toBe(0);
  });

  it('keeps following when the content shrinks (the browser lowers the view) and then grows', () => {
    vi.useFakeTimers();
    const el = container(1000, 500, 500);
    scrollToBottom(el, { force: true });
    el.scrollHeight = 900; // a row measured smaller than estimated
    el.scrollTop = el.scrollTop; // the browser clamps the view to the new bottom
    vi.advanceTimersByTime(100);
    el.scrollHeight = 1400; // then an image loads
    vi.advanceTimersByTime(100);
    expect(distanceFromBottom(el)).toBe(0);
  });

  it('cancel stops the retries', () => {
    vi.useFakeTimers();
    const el = container(1000, 500, 500);
    const { cancel } = scrollToBottom(el, { force: true });
    cancel();
    expect(vi.getTimerCount()).toBe(0);
  });
});
