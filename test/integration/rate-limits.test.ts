/**
 * Sending too often, SDK against the real reference server with low limits: HTTP 413 (the
 * `requestTooFrequent` notice at most once per 3 s, every call rejected) and the socket's
 * type-500 `too-frequent` refusal.
 */
import { describe, expect, it } from 'vitest';
import { ApiError, DEFAULT_LIMITS, defaultTimers, type TimerProvider } from '../../src/index.js';
import { clientsPerTest, connectedVisitor, DEMO, sharedServer, type TestServer, waitUntil } from './harness.js';

let server: TestServer;

// Per client (a live salt key) 8 calls a minute; start-up's 4 calls name no key session yet (by address).
sharedServer((s) => (server = s), { env: { RATE_HTTP_MAX: '8', RATE_HTTP_WINDOW_MS: '60000', RATE_SOCKET_MAX: '3', RATE_SOCKET_WINDOW_MS: '60000' } });
const clients = clientsPerTest();

describe('HTTP 413: every call over the limit rejects; the notice shows at most once per 3 s', () => {
  it('hammers a cheap call: one requestTooFrequent notice per throttleNoticeInterval', async () => {
    // the client's clock stands still unless moved, so that "3 s later" needs no real wait
    const frozen = Date.now();
    let skew = 0;
    const timers: TimerProvider = { ...defaultTimers, now: () => frozen + skew };
    const { client, notices } = clients.make(server, { timers });
    expect((await client.start()).errors).toEqual([]);
    expect(client.limits.throttleNoticeInterval).toBe(DEFAULT_LIMITS.throttleNoticeInterval);
    const query = { mchId: DEMO.mchId, platformId: DEMO.platformId, keyword: 'deposit' };
    const burst = async (n: number) => Promise.allSettled(Array.from({ length: n }, () => client.api.questionLike(query)));

    const first = await burst(15);
    const ok = first.filter((r) => r.status === 'fulfilled');
    const refused = first.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => r.reason as unknown);
    expect(ok).toHaveLength(8); // 8 per window: start-up's calls name no key session yet (they count against the address)
    expect(refused).toHaveLength(7);
    for (const e of refused) {
      expect(e).toBeInstanceOf(ApiError);
      expect(e).toMatchObject({ status: 413, code: 413 });
    }
    expect(notices.map((n) => n.key)).toEqual(['requestTooFrequent']);

    // 2.999 s later: still inside the interval, no second notice
    skew += DEFAULT_LIMITS.throttleNoticeInterval - 1;
    const second = await burst(5);
    expect(second.every((r) => r.status === 'rejected')).toBe(true);
    expect(notices.map((n) => n.key)).toEqual(['requestTooFrequent']);

    // 3 s after the first: the notice shows again, once
    skew += 1;
    await burst(5);
    expect(notices.map((n) => n.key)).toEqual(['requestTooFrequent', 'requestTooFrequent']);
    expect(notices[0]).toMatchObject({ level: 'warning', text: client.t('requestTooFrequent') });
  });
});

describe('socket: more than RATE_SOCKET_MAX messages per window are refused too-frequent', () => {
  it('acknowledges the first three and fails the rest with the sendTooFrequent notice', async () => {
    const visitor = await connectedVisitor(clients, server);
    const v = visitor.client;
    const sent = ['one', 'two', 'three', 'four', 'five'].map((t) => v.sendText(t));
    await waitUntil(() => {
      const states = sent.map((m) => v.messages.get(m.fp!)?.sendState);
      expect(states).toEqual(['sent', 'sent', 'sent', 'failed', 'failed']);
    });
    expect(v.messages.get(sent[3]!.fp!)?.failReason).toBe('too-frequent');
    expect(visitor.notices.filter((n) => n.key === 'sendTooFrequent')).toHaveLength(2);
    expect(await server.store.chat.message(sent[4]!.fp!)).toBeUndefined();
    // the acknowledged ones are stored once
    for (const m of sent.slice(0, 3)) expect((await server.store.chat.message(m.fp!))?.dataContent).toBe(m.dataContent);
  });
});
