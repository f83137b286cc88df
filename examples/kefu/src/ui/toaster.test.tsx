// @vitest-environment happy-dom
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOAST_DURATION, ToastProvider, useToast, type ShowToast } from './toaster.js';

let show: ShowToast = () => undefined;
function Grab(): null {
  show = useToast();
  return null;
}

/** The texts of the toasts on the page, with their level class. */
function shown(): string[] {
  return [...document.querySelectorAll('.toasts .toast')].map((t) => `${t.className}: ${t.textContent ?? ''}`);
}

beforeEach(() => {
  vi.useFakeTimers();
  render(
    <ToastProvider>
      <Grab />
    </ToastProvider>,
  );
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('spec §4, §9: a toast is shown and hidden after its duration (default 2 000 ms, type success)', () => {
  it('the default: shown as success for 2 000 ms, then gone', () => {
    expect(TOAST_DURATION).toBe(2_000);
    act(() => show('Saved'));
    expect(shown()).toEqual(['toast toast-success: Saved']);
    act(() => void vi.advanceTimersByTime(1_999));
    expect(shown()).toEqual(['toast toast-success: Saved']);
    act(() => void vi.advanceTimersByTime(1));
    expect(shown()).toEqual([]);
  });

  it('a toast of its own duration and level stays that long; each leaves on its own time', () => {
    act(() => show('It will close soon', 'warning', 4_000));
    act(() => void vi.advanceTimersByTime(1_000));
    act(() => show('Sent'));
    act(() => void vi.advanceTimersByTime(2_000));
    expect(shown()).toEqual(['toast toast-warning: It will close soon']);
    act(() => void vi.advanceTimersByTime(999));
    expect(shown()).toEqual(['toast toast-warning: It will close soon']);
    act(() => void vi.advanceTimersByTime(1));
    expect(shown()).toEqual([]);
  });

  it('no timer is left once the provider is gone', () => {
    act(() => show('Saved'));
    cleanup();
    expect(vi.getTimerCount()).toBe(0);
  });
});
