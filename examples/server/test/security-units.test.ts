/**
 * The pure parts of the abuse limits, with injected time: the sliding window over several keys,
 * the coalesced queue updates, the client address behind trusted proxies.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatContext } from '../src/chat/context.js';
import { QueueUpdates } from '../src/chat/queue-updates.js';
import type { WireMessage } from '../src/chat/wire.js';
import { ConfigError, loadConfig, parseTrustProxy } from '../src/config.js';
import { clientAddress, trustProxyOf } from '../src/http/client-address.js';
import { pagePolicy } from '../src/http/security-headers.js';
import { SlidingWindowLimiter } from '../src/socket/rate-limiter.js';
import type { ServiceSession } from '../src/store/types.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('SlidingWindowLimiter.hitAll: one event counted against several keys', () => {
  it('refuses when any key is full and then records nothing on the others', () => {
    const limiter = new SlidingWindowLimiter(2, 1000);
    expect(limiter.hitAll(['id:a', 't:1'], 0)).toBe(true);
    expect(limiter.hitAll(['id:b', 't:1'], 1)).toBe(true);
    // t:1 is full: id:c is refused and keeps its whole allowance
    expect(limiter.hitAll(['id:c', 't:1'], 2)).toBe(false);
    expect(limiter.hitAll(['id:c', 't:2'], 3)).toBe(true);
    expect(limiter.hitAll(['id:c', 't:3'], 4)).toBe(true);
    expect(limiter.hitAll(['id:c', 't:4'], 5)).toBe(false);
    // the window slides
    expect(limiter.hitAll(['id:a', 't:1'], 1001)).toBe(true);
  });

  it('forgets idle keys by itself once per window (bounded memory)', () => {
    const limiter = new SlidingWindowLimiter(1, 1000);
    for (let i = 0; i < 100; i += 1) limiter.hit(`ip:${i}`, 10);
    expect(limiter.size).toBe(100);
    limiter.hit('ip:new', 5000);
    expect(limiter.size).toBe(1);
  });
});

describe('QueueUpdates: at most one queued event per visitor per interval, the latest position wins', () => {
  function setup(intervalMs: number) {
    let queue: ServiceSession[] = [];
    const frames: { to: string; position: number }[] = [];
    const ctx = {
      store: { chat: { queue: async () => queue } },
      hub: {
        sendTo: (userId: string, message: WireMessage) => {
          frames.push({ to: userId, position: (JSON.parse(message.dataContent ?? '{}') as { position: number }).position });
          return 1;
        },
      },
    } as unknown as ChatContext;
    const updates = new QueueUpdates(ctx, intervalMs, async () => false, (error) => {
      throw error;
    });
    const session = (i: number): ServiceSession => ({
      sessionId: `s${i}`, clientId: `c${i}`, mchId: 'M', platformId: 'P', state: 'queued', agentId: null,
      createdAt: 0, queuedAt: i, acceptedAt: null, endedAt: null, score: null, remark: null,
    });
    const all = Array.from({ length: 50 }, (_, i) => session(i));
    queue = [...all];
    return { updates, frames, all, setQueue: (q: ServiceSession[]) => (queue = q) };
  }

  it('50 leave one by one, 10 ms apart: each visitor behind hears about one update per second', async () => {
    vi.useFakeTimers();
    const { updates, frames, all, setQueue } = setup(1000);
    for (const s of all) await updates.tellNow(s);
    expect(frames).toHaveLength(50);
    frames.length = 0;
    for (let i = 1; i <= 50; i += 1) {
      setQueue(all.slice(i));
      updates.changed();
      await vi.advanceTimersByTimeAsync(10);
    }
    await vi.advanceTimersByTimeAsync(2000);
    // 500 ms of departures: a flush at once, one a second later; never N²/2 (= 1,225)
    expect(frames.length).toBeLessThanOrEqual(2 * 50);
    const perVisitor = new Map<string, number>();
    for (const f of frames) perVisitor.set(f.to, (perVisitor.get(f.to) ?? 0) + 1);
    expect(Math.max(...perVisitor.values())).toBeLessThanOrEqual(2);
  });

  it('sends only what changed, and the latest position', async () => {
    vi.useFakeTimers();
    const { updates, frames, all, setQueue } = setup(1000);
    for (const s of all.slice(0, 3)) await updates.tellNow(s);
    setQueue(all.slice(0, 3));
    frames.length = 0;
    setQueue([all[1] as ServiceSession, all[2] as ServiceSession]);
    updates.changed();
    await vi.advanceTimersByTimeAsync(0);
    expect(frames).toEqual([{ to: 'c1', position: 1 }, { to: 'c2', position: 2 }]);
    frames.length = 0;
    setQueue([all[2] as ServiceSession]);
    updates.changed();
    await vi.advanceTimersByTimeAsync(999);
    expect(frames).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(frames).toEqual([{ to: 'c2', position: 1 }]);
    updates.dispose();
  });

  it('dispose cancels a pending flush', async () => {
    vi.useFakeTimers();
    const { updates, frames, all, setQueue } = setup(1000);
    updates.changed();
    await vi.advanceTimersByTimeAsync(0);
    frames.length = 0;
    setQueue(all.slice(1));
    updates.changed();
    updates.dispose();
    await vi.advanceTimersByTimeAsync(5000);
    expect(frames).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('TRUST_PROXY: the client address behind a trusted reverse proxy', () => {
  const trust = trustProxyOf(['127.0.0.1', '10.0.0.2']);

  it('ignores X-Forwarded-For from an untrusted peer (a client cannot pick its address)', () => {
    expect(clientAddress('203.0.113.9', '1.2.3.4', trust)).toBe('203.0.113.9');
    expect(clientAddress('203.0.113.9', undefined, trustProxyOf([]))).toBe('203.0.113.9');
  });

  it('takes the nearest untrusted hop when the peer is a trusted proxy', () => {
    expect(clientAddress('127.0.0.1', '198.51.100.7', trust)).toBe('198.51.100.7');
    expect(clientAddress('::ffff:127.0.0.1', 'forged.by.client, 198.51.100.7, 10.0.0.2', trust)).toBe('198.51.100.7');
    expect(clientAddress('127.0.0.1', ['1.1.1.1, 198.51.100.7'], trust)).toBe('198.51.100.7');
    expect(clientAddress('127.0.0.1', 'not-an-ip', trust)).toBe('127.0.0.1');
    expect(clientAddress('127.0.0.1', undefined, trust)).toBe('127.0.0.1');
  });

  it('reads TRUST_PROXY as IP addresses or "loopback", and refuses anything else', () => {
    expect(parseTrustProxy('')).toEqual([]);
    expect(parseTrustProxy('loopback, 10.0.0.2')).toEqual(['127.0.0.1', '::1', '10.0.0.2']);
    expect(() => parseTrustProxy('proxy.example')).toThrow(ConfigError);
    expect(() => parseTrustProxy('10.0.0.0/8')).toThrow(ConfigError);
  });
});

describe('configuration of the limits', () => {
  it('has the documented defaults', () => {
    expect(loadConfig({}).abuse).toEqual({
      keySessionsMax: 60,
      keySessionsWindowMs: 60_000,
      connectsMax: 60,
      connectsWindowMs: 60_000,
      socketsPerIdentity: 5,
      queueUpdateMs: 1000,
    });
    expect(loadConfig({}).rate).toMatchObject({ socketMax: 10, socketWindowMs: 5000, httpMax: 300, httpWindowMs: 60_000 });
    expect(loadConfig({}).trustProxy).toEqual([]);
    expect(loadConfig({})).toMatchObject({ keySessionTtlMs: 24 * 3_600_000, keySessionUnboundTtlMs: 10 * 60_000 });
    expect(loadConfig({ KEY_SESSION_UNBOUND_TTL_MS: '5000' }).keySessionUnboundTtlMs).toBe(5000);
    expect(() => loadConfig({ KEY_SESSION_UNBOUND_TTL_MS: '10' })).toThrow(ConfigError);
  });

  it('reads every limit from its variable and refuses unusable values', () => {
    const env = { RATE_KEY_SESSIONS_MAX: '7', RATE_KEY_SESSIONS_WINDOW_MS: '1000', RATE_CONNECTS_MAX: '8', RATE_CONNECTS_WINDOW_MS: '2000', MAX_SOCKETS_PER_IDENTITY: '2', QUEUE_UPDATE_MS: '0' };
    expect(loadConfig(env).abuse).toEqual({ keySessionsMax: 7, keySessionsWindowMs: 1000, connectsMax: 8, connectsWindowMs: 2000, socketsPerIdentity: 2, queueUpdateMs: 0 });
    for (const name of Object.keys(env)) expect(() => loadConfig({ [name]: '-1' }), name).toThrow(ConfigError);
    expect(() => loadConfig({ MAX_SOCKETS_PER_IDENTITY: '0' })).toThrow(ConfigError);
  });

  it("the page policy names PUBLIC_URL's origin beside 'self'", () => {
    expect(pagePolicy({ publicUrl: 'https://chat.example.com/base' })).toContain("connect-src 'self' https://chat.example.com wss://chat.example.com ws: wss:");
    expect(pagePolicy({ publicUrl: '' })).toContain("connect-src 'self' ws: wss:");
  });
});
