// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { listenForMessages, postLaunch, type LaunchWindow } from './launch.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('Once mounted the root view posts a launch notification to its parent window, or to itself when it has no parent (spec §2, §7: wildcard target origin)', () => {
  it('posts { type: "launch" } to the parent with target origin * when framed', () => {
    const parent = { postMessage: vi.fn() };
    const win: LaunchWindow = { postMessage: vi.fn(), parent };
    expect(postLaunch(win)).toBe('parent');
    expect(parent.postMessage).toHaveBeenCalledWith({ type: 'launch' }, '*');
    expect(win.postMessage).not.toHaveBeenCalled();
  });

  it('posts to itself when its parent is itself (top-level page)', () => {
    const postMessage = vi.fn<(message: unknown, targetOrigin: string) => void>();
    const win: LaunchWindow = {
      postMessage,
      get parent() {
        return win;
      },
    };
    expect(postLaunch(win)).toBe('self');
    expect(postMessage).toHaveBeenCalledWith({ type: 'launch' }, '*');
  });

  it('posts to itself when there is no parent', () => {
    const win = { postMessage: vi.fn(), parent: null };
    expect(postLaunch(win)).toBe('self');
    expect(win.postMessage).toHaveBeenCalledWith({ type: 'launch' }, '*');
  });

  it('a real top-level window receives its own launch message', async () => {
    const received = vi.fn();
    window.addEventListener('message', received);
    expect(postLaunch(window)).toBe('self');
    await vi.waitFor(() => expect(received).toHaveBeenCalled());
    expect(received.mock.calls[0]![0].data).toEqual({ type: 'launch' });
    window.removeEventListener('message', received);
  });

  it("targets the embedding page's origin when it is known (ancestorOrigins, the referrer, or the option)", () => {
    const framed = (extra: Partial<LaunchWindow>) => {
      const parent = { postMessage: vi.fn() };
      return { parent, win: { postMessage: vi.fn(), parent, ...extra } as LaunchWindow };
    };
    const byAncestors = framed({ location: { ancestorOrigins: { length: 2, 0: 'https://shop.example', 1: 'https://top.example' } } });
    postLaunch(byAncestors.win);
    expect(byAncestors.parent.postMessage).toHaveBeenCalledWith({ type: 'launch' }, 'https://shop.example');
    const byReferrer = framed({ document: { referrer: 'https://m.shop.example:8443/p?q=1' } });
    postLaunch(byReferrer.win);
    expect(byReferrer.parent.postMessage).toHaveBeenCalledWith({ type: 'launch' }, 'https://m.shop.example:8443');
    const byOption = framed({ document: { referrer: 'https://m.shop.example/' } });
    postLaunch(byOption.win, { parentOrigin: 'https://configured.example' });
    expect(byOption.parent.postMessage).toHaveBeenCalledWith({ type: 'launch' }, 'https://configured.example');
    // a sandboxed parent ('null') or a file: page is an unknown origin: the wildcard fallback
    const sandboxed = framed({ location: { ancestorOrigins: { length: 1, 0: 'null' } }, document: { referrer: 'https://shop.example/' } });
    postLaunch(sandboxed.win);
    expect(sandboxed.parent.postMessage).toHaveBeenCalledWith({ type: 'launch' }, '*');
  });

  it('does nothing without a window (SSR)', () => {
    expect(postLaunch(undefined)).toBeNull();
    expect(postLaunch(null)).toBeNull();
  });
});

describe('Security rule: inbound postMessage checks the origin', () => {
  const message = (data: unknown, origin: string) => new MessageEvent('message', { data, origin });

  it('hands on messages from listed origins only', () => {
    const onMessage = vi.fn();
    const dispose = listenForMessages(window, { allowedOrigins: ['https://host.example', 'http://localhost:3000/'], onMessage });
    window.dispatchEvent(message({ type: 'openChat' }, 'https://evil.example'));
    window.dispatchEvent(message({ type: 'x' }, 'https://host.example.evil.example'));
    window.dispatchEvent(message({ type: 'hello' }, 'https://host.example'));
    window.dispatchEvent(message({ type: 'local' }, 'http://localhost:3000'));
    expect(onMessage.mock.calls).toEqual([
      [{ type: 'hello' }, 'https://host.example'],
      [{ type: 'local' }, 'http://localhost:3000'],
    ]);
    dispose();
    window.dispatchEvent(message({ type: 'late' }, 'https://host.example'));
    expect(onMessage).toHaveBeenCalledTimes(2);
  });

  it('ignores everything when no origin is listed, and the null origin unless listed literally', () => {
    const onMessage = vi.fn();
    const d1 = listenForMessages(window, { allowedOrigins: [], onMessage });
    window.dispatchEvent(message(1, 'https://host.example'));
    window.dispatchEvent(message(2, 'null'));
    expect(onMessage).not.toHaveBeenCalled();
    d1();
    const d2 = listenForMessages(window, { allowedOrigins: ['null'], onMessage });
    window.dispatchEvent(message(3, 'null'));
    expect(onMessage).toHaveBeenCalledWith(3, 'null');
    d2();
  });

  it('refuses the wildcard and things that are not origins', () => {
    const onMessage = vi.fn();
    expect(() => listenForMessages(window, { allowedOrigins: ['*'], onMessage })).toThrow(/not an origin/);
    expect(() => listenForMessages(window, { allowedOrigins: ['host.example'], onMessage })).toThrow(/not an origin/);
    expect(() => listenForMessages(window, { allowedOrigins: 'https://a.example' as unknown as string[], onMessage })).toThrow(/array/);
    expect(() => listenForMessages(window, { allowedOrigins: [], onMessage: undefined as unknown as () => void })).toThrow(/onMessage/);
  });
});
