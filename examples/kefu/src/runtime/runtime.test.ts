import { describe, expect, it, vi } from 'vitest';
import { conversationKey, conversationOfPath } from './prepare.js';
import { agentRefusals, appReconnectPolicy, CLOSE_BANNED, CLOSE_UNAUTHORIZED } from './runtime.js';

const ctx = (attempt: number, closeCode?: number) => ({ attempt, elapsedMs: 0, reason: 'close', visible: true, online: true, ...(closeCode ? { closeCode } : {}) });

describe('spec §9: reconnect delay 5000 ms, limit 10; no reconnect after unauthorised or banned', () => {
  it('waits the delay up to the limit, then goes on slower (never gives up by itself)', () => {
    const policy = appReconnectPolicy(5_000, 10, () => undefined);
    expect(policy(ctx(1))).toBe(5_000);
    expect(policy(ctx(10, 1006))).toBe(5_000);
    expect(policy(ctx(11))).toEqual(expect.any(Number));
    expect(policy(ctx(500))).toBeLessThanOrEqual(10_000);
  });

  it('a visitor stops at once and reports a 4003 close; a 4001 (expired key session) goes on', () => {
    const fatal = vi.fn();
    const policy = appReconnectPolicy(5_000, 10, fatal);
    expect(policy(ctx(1, CLOSE_UNAUTHORIZED))).toBe(5_000);
    expect(policy(ctx(1, CLOSE_BANNED))).toBeNull();
    expect(fatal.mock.calls).toEqual([[4003]]);
  });

  it('an agent stops at once and reports a 4001 (refused login) or 4003 close', () => {
    const fatal = vi.fn();
    const policy = appReconnectPolicy(5_000, 10, fatal, [CLOSE_UNAUTHORIZED, CLOSE_BANNED]);
    expect(policy(ctx(1, CLOSE_UNAUTHORIZED))).toBeNull();
    expect(policy(ctx(1, CLOSE_BANNED))).toBeNull();
    expect(fatal.mock.calls).toEqual([[4001], [4003]]);
  });

  it('the desk retries a first 4001 at once (fresh keys), stops at a second one in a row, and waits out any other close for ever', () => {
    const fatal = vi.fn();
    const policy = appReconnectPolicy(5_000, 10, fatal, [CLOSE_BANNED], agentRefusals);
    expect(policy(ctx(1, CLOSE_UNAUTHORIZED))).toBe(0);
    expect(fatal).not.toHaveBeenCalled();
    expect(policy(ctx(2, CLOSE_UNAUTHORIZED))).toBeNull();
    expect(fatal.mock.calls).toEqual([[4001]]);
    expect(policy(ctx(40, 1006))).toEqual(expect.any(Number)); // a server away for minutes: still trying
    expect(policy(ctx(1, CLOSE_BANNED))).toBeNull();
  });
});

describe('spec §4: start-up runs for the conversation of the first page', () => {
  it('knows which paths show a conversation', () => {
    expect(conversationOfPath('/')).toEqual({ route: 'kefu' });
    expect(conversationOfPath('/kefu/abc')).toEqual({ route: 'kefu', id: 'abc' });
    expect(conversationOfPath('/group/G1/%E7%BE%A4')).toEqual({ route: 'group', id: 'G1', name: '群' });
    expect(conversationOfPath('/404')).toBeNull();
    expect(conversationOfPath('/agent')).toBeNull();
    expect(conversationOfPath('/kefu/a/b')).toBeNull();
  });

  it('keys one client per conversation', () => {
    expect(conversationKey({ route: 'kefu', id: 'abc' })).not.toBe(conversationKey({ route: 'group', id: 'abc' }));
    expect(conversationKey({ route: 'kefu' })).toBe(conversationKey(conversationOfPath('/') ?? { route: 'group' }));
  });
});
