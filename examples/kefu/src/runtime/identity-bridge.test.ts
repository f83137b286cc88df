/**
 * The app's identity bridge (protocol §3b): only well-formed messages of the embedding page's
 * origin are heard; a log-in identifies every conversation client once (a fresh token for a
 * verified one is only kept), a log-out resets them all; a page that is not framed listens to nothing.
 */
import { describe, expect, it, vi } from 'vitest';
import type { ImClient } from '@kefu-im/sdk';
import { applyHostIdentity, hostIdentityMessage, installIdentityBridge } from './identity-bridge.js';
import type { AppRuntime } from './runtime.js';

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbm4ifQ.c2ln';

function fakeClient(verified = false) {
  return { identify: vi.fn(async () => undefined), reset: vi.fn(async () => undefined), connectionStore: { getState: () => ({ verified }) } };
}

function fakeRuntime(clients: ReturnType<typeof fakeClient>[]): AppRuntime {
  return { identityToken: null, visitorClients: () => clients as unknown as ImClient[] } as unknown as AppRuntime;
}

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
    const runtime = fakeRuntime([a]);
    await applyHostIdentity(runtime, { type: 'kefu:identity', token: TOKEN });
    expect(runtime.identityToken).toBe(TOKEN);
    expect(a.identify).toHaveBeenCalledTimes(1);
    const source = (a.identify.mock.calls[0] as unknown as [() => Promise<string | null>])[0];
    const verified = fakeClient(true);
    const refreshed = fakeRuntime([verified]);
    refreshed.identityToken = TOKEN;
    await applyHostIdentity(refreshed, { type: 'kefu:identity', token: `${TOKEN}x` });
    expect(verified.identify).not.toHaveBeenCalled();
    expect(refreshed.identityToken).toBe(`${TOKEN}x`);
    runtime.identityToken = 'a.b.c';
    await expect(source()).resolves.toBe('a.b.c');
  });

  it('a log-out forgets the token and resets each client; a log-out of nobody does nothing', async () => {
    const a = fakeClient(true);
    const runtime = fakeRuntime([a]);
    runtime.identityToken = TOKEN;
    await applyHostIdentity(runtime, { type: 'kefu:logout' });
    expect(runtime.identityToken).toBeNull();
    expect(a.reset).toHaveBeenCalledTimes(1);
    const anonymous = fakeClient(false);
    await applyHostIdentity(fakeRuntime([anonymous]), { type: 'kefu:logout' });
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
    expect(installIdentityBridge(runtime, win)).toEqual(expect.any(Function));
    post('https://evil.example', { type: 'kefu:identity', token: TOKEN });
    await Promise.resolve();
    expect(runtime.identityToken).toBeNull();
    post('https://shop.example', { type: 'kefu:identity', token: TOKEN });
    await vi.waitFor(() => expect(a.identify).toHaveBeenCalledTimes(1));
  });

  it('a page that is not framed installs nothing', () => {
    expect(installIdentityBridge(fakeRuntime([]), fakeWindow(false).win)).toBeNull();
  });
});
