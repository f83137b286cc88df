/**
 * The app's identity bridge (protocol §3b): only well-formed messages of the embedding page's
 * origin are heard; a log-in identifies every conversation client once (a fresh token for a
 * verified one is only kept), a log-out resets them all; a page that is not framed listens to nothing.
 */
import { describe, expect, it, vi } from 'vitest';
import type { ImClient } from '@kefu-im/sdk';
import { applyHostIdentity, hostIdentityMessage, installIdentity, installIdentityBridge, takeIdentityParam, type IdentityHolder } from './identity-bridge.js';
import type { AppRuntime } from './runtime.js';

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbm4ifQ.c2ln';

function fakeClient(verified = false) {
  return { identify: vi.fn(async () => undefined), reset: vi.fn(async () => undefined), connectionStore: { getState: () => ({ verified }) } };
}

function fakeRuntime(clients: ReturnType<typeof fakeClient>[]): AppRuntime {
  return { visitorOptions: {}, visitorClients: () => clients as unknown as ImClient[] } as unknown as AppRuntime;
}

const holder = (token: string | null = null): IdentityHolder => ({ token });

describe('host messages: only a log-in with a JWT-shaped token of sane size, or a log-out', () => {
  it('accepts both kinds and ignores everything else', () => {
    expect(hostIdentityMessage({ type: 'kefu:identity', token: TOKEN })).toEqual({ type: 'kefu:identity', token: TOKEN });
    expect(hostIdentityMessage({ type: 'kefu:logout' })).toEqual({ type: 'kefu:logout' });
    for (const bad of [null, 'kefu:logout', { type: 'kefu:identity' }, { type: 'kefu:identity', token: 42 }, { type: 'kefu:identity', token: '<img src=x>' }, { type: 'kefu:identity', token: `${'a'.repeat(4100)}.b.c` }, { type: 'launch' }]) {
      expect(hostIdentityMessage(bad)).toBeNull();
    }
  });
});

describe('log-in and log-out switch every conversation client', () => {
  it('a log-in identifies each client with a source that reads the latest token; a refresh only updates the token', async () => {
    const a = fakeClient();
    const held = holder();
    await applyHostIdentity(fakeRuntime([a]), held, { type: 'kefu:identity', token: TOKEN });
    expect(held.token).toBe(TOKEN);
    expect(a.identify).toHaveBeenCalledTimes(1);
    const source = (a.identify.mock.calls[0] as unknown as [() => Promise<string | null>])[0];
    const verified = fakeClient(true);
    const refreshed = holder(TOKEN);
    await applyHostIdentity(fakeRuntime([verified]), refreshed, { type: 'kefu:identity', token: `${TOKEN}x` });
    expect(verified.identify).not.toHaveBeenCalled();
    expect(refreshed.token).toBe(`${TOKEN}x`);
    held.token = 'a.b.c';
    await expect(source()).resolves.toBe('a.b.c');
  });

  it('a log-out forgets the token and resets each client; a log-out of nobody does nothing', async () => {
    const a = fakeClient(true);
    const held = holder(TOKEN);
    await applyHostIdentity(fakeRuntime([a]), held, { type: 'kefu:logout' });
    expect(held.token).toBeNull();
    expect(a.reset).toHaveBeenCalledTimes(1);
    const anonymous = fakeClient(false);
    await applyHostIdentity(fakeRuntime([anonymous]), holder(), { type: 'kefu:logout' });
    expect(anonymous.reset).not.toHaveBeenCalled();
  });
});

describe('the channel: the embedding origin only', () => {
  function fakeWindow(framed: boolean) {
    const listeners: ((e: { origin: string; data: unknown }) => void)[] = [];
    const win = {
      location: { ancestorOrigins: { length: 1, 0: 'https://shop.example', item: () => 'https://shop.example' }, origin: 'https://chat.example' },
      document: { referrer: 'https://shop.example/account' },
      addEventListener: (_: string, fn: (e: { origin: string; data: unknown }) => void) => listeners.push(fn),
      removeEventListener: vi.fn(),
      parent: null as unknown,
    };
    win.parent = framed ? {} : win;
    return { win: win as unknown as Window, post: (origin: string, data: unknown) => listeners.forEach((l) => l({ origin, data })) };
  }

  it("hears the host's origin and ignores another origin's log-in", async () => {
    const a = fakeClient();
    const runtime = fakeRuntime([a]);
    const { win, post } = fakeWindow(true);
    const { holder: held, stop } = installIdentity(runtime, win, null);
    expect(stop).toEqual(expect.any(Function));
    await expect(runtime.visitorOptions.getIdentityToken?.()).resolves.toBeNull();
    post('https://evil.example', { type: 'kefu:identity', token: TOKEN });
    await Promise.resolve();
    expect(held.token).toBeNull();
    post('https://shop.example', { type: 'kefu:identity', token: TOKEN });
    await vi.waitFor(() => expect(a.identify).toHaveBeenCalledTimes(1));
  });

  it('a page that is not framed installs nothing', () => {
    expect(installIdentityBridge(fakeRuntime([]), holder(), fakeWindow(false).win)).toBeNull();
  });
});

describe('the entry link: ?identity= leaves the address bar at once and is kept in memory only', () => {
  it('returns the token and replaces the address without it, keeping the rest', () => {
    const replaceState = vi.fn();
    const win = { location: { href: `https://chat.example/kefu/abc?x=1&identity=${TOKEN}#top` }, history: { state: { n: 1 }, replaceState } } as unknown as Window;
    expect(takeIdentityParam(win)).toBe(TOKEN);
    expect(replaceState).toHaveBeenCalledWith({ n: 1 }, '', new URL('https://chat.example/kefu/abc?x=1#top'));
    const plain = { location: { href: 'https://chat.example/kefu/abc' }, history: { state: null, replaceState } } as unknown as Window;
    expect(takeIdentityParam(plain)).toBeNull();
    expect(replaceState).toHaveBeenCalledTimes(1);
  });
});
