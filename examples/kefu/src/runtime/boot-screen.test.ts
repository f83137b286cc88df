// @vitest-environment happy-dom
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { CHAT_TEXT_STYLES, pauseBootSpinner, SPINNER_PAUSE_MS, TEXT_SAMPLE, warmChatText } from './first-visit.js';

// (a path from the module's URL string: happy-dom's global URL is not Node's)
const SRC = join(dirname(fileURLToPath(import.meta.url)), '..');
const STYLES = readFileSync(join(SRC, 'styles.css'), 'utf8');
/** The chat's components' sources (examples/kefu/src/chat). */
const CHAT_SOURCES = readdirSync(join(SRC, 'chat'))
  .filter((name) => name.endsWith('.tsx') && !name.includes('.test.'))
  .map((name) => readFileSync(join(SRC, 'chat', name), 'utf8'))
  .join('\n');

/** The declarations of a rule of styles.css whose selector list is exactly `selector`. */
function rule(selector: string): string {
  const escaped = selector.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`(?:^|\\n)${escaped} \\{([^}]*)\\}`).exec(STYLES);
  return match?.[1] ?? '';
}

/** The page's boot screen, as index.html writes it. */
function bootScreen(): HTMLElement {
  const root = document.createElement('div');
  root.innerHTML = '<div class="boot" role="status"><span class="boot-spinner" aria-hidden="true"></span><p>加载中…</p></div>';
  return root;
}

describe("issue 24: a first visit's boot spinner stands still while the chat is rendered in its place", () => {
  it('stops the spinner, and turns it again if the chat has not replaced the boot screen in time', () => {
    vi.useFakeTimers();
    try {
      const root = bootScreen();
      const boot = root.querySelector('.boot') as HTMLElement;
      pauseBootSpinner(root);
      expect(boot.classList.contains('boot-rendering')).toBe(true);
      vi.advanceTimersByTime(SPINNER_PAUSE_MS - 1);
      expect(boot.classList.contains('boot-rendering')).toBe(true);
      vi.advanceTimersByTime(1);
      // a part of the chat still waits for its code: the page must not look stuck
      expect(boot.classList.contains('boot-rendering')).toBe(false);
      expect(boot.getAttribute('role')).toBe('status');
    } finally {
      vi.useRealTimers();
    }
  });

  it('leaves the chat alone once it replaced the boot screen, and does nothing without a boot screen', () => {
    vi.useFakeTimers();
    try {
      const root = bootScreen();
      pauseBootSpinner(root);
      // React committed the chat in the boot screen's place before the pause ran out
      root.innerHTML = '<main class="chat"><p>hi</p></main>';
      vi.advanceTimersByTime(SPINNER_PAUSE_MS);
      expect(root.innerHTML).toBe('<main class="chat"><p>hi</p></main>');
      const empty = document.createElement('div');
      pauseBootSpinner(empty);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("issue 24: a first visit lays out the chat's text styles while its key exchange waits", () => {
  it('puts one hidden sample of each style beside the boot screen, out of the accessibility tree', () => {
    const root = bootScreen();
    warmChatText(root);
    const box = root.querySelector('.boot + .text-warmup') as HTMLElement;
    expect(box).not.toBeNull();
    expect(box.getAttribute('aria-hidden')).toBe('true');
    expect(box.children).toHaveLength(CHAT_TEXT_STYLES.length);
    for (const [i, { className, element }] of CHAT_TEXT_STYLES.entries()) {
      const styled = box.children[i] as HTMLElement;
      expect(styled.className).toBe(className);
      const text = element ? styled.querySelector(element) : styled;
      expect(text?.textContent).toBe(TEXT_SAMPLE);
    }
    // the boot screen itself is unchanged: its status text is what a screen reader hears
    expect(root.querySelector('.boot p')?.textContent).toBe('加载中…');
    expect(root.querySelector('.boot')?.getAttribute('role')).toBe('status');
  });

  it('does nothing without a boot screen (the chat is already there)', () => {
    const root = document.createElement('div');
    root.innerHTML = '<main class="chat"><p>hi</p></main>';
    warmChatText(root);
    expect(root.innerHTML).toBe('<main class="chat"><p>hi</p></main>');
  });

  it('samples styles the chat really has, and never shows them', () => {
    for (const { className, element } of CHAT_TEXT_STYLES) {
      // a class the chat's components use, with a rule of its own in the stylesheet
      expect(CHAT_SOURCES, className).toMatch(new RegExp(`className=(?:"|\\{\`)(?:[\\w-]+ )*${className}[" $]`));
      expect((element ? rule(`.${className} ${element}`) : rule(`.${className}`)).trim(), className).not.toBe('');
    }
    const hidden = rule('.text-warmup');
    expect(hidden).toMatch(/visibility: hidden;/);
    expect(hidden).toMatch(/position: absolute;/);
    expect(hidden).toMatch(/width: 0;/);
    expect(hidden).toMatch(/height: 0;/);
    expect(hidden).toMatch(/overflow: hidden;/);
  });
});
