// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import { pauseBootSpinner, SPINNER_PAUSE_MS } from './first-visit.js';

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
