import type { ImClientOptions, MessagePage, Notice, ReconnectContext } from '@kefu-im/sdk';
import { CloseCode } from '@kefu-im/sdk/codes';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { awaitFirstPage, FIRST_PAGE_WAIT_MS } from './first-visit.js';
import { AppRuntime } from './runtime.js';

// the options each client was created with (its reconnect policy reports fatal closes)
const created = vi.hoisted(() => [] as { reconnectPolicy?: unknown }[]);
vi.mock('@kefu-im/sdk', async (original) => {
  const sdk = await original<typeof import('@kefu-im/sdk')>();
  class RecordedClient extends sdk.ImClient {
    constructor(options: ImClientOptions) {
      super(options);
      created.push(options);
    }
  }
  return { ...sdk, ImClient: RecordedClient };
});

const config = { baseUrl: 'http://127.0.0.1:1', socketUrl: 'ws://127.0.0.1:1/ws', socketKey: 'k,s', aesSwitch: false };
const page: MessagePage = { messages: [], hasMore: false } as unknown as MessagePage;
const notice = (key: string): Notice => ({ key, text: key, level: 'warning', duration: 2_000 }) as Notice;

afterEach(() => {
  vi.useRealTimers();
});

describe('issue 24: a first visit waits for its first history page before the chat is rendered', () => {
  it('asks for the page once the page connected, and is ready when it is in', async () => {
    const loadOlder = vi.fn(() => Promise.resolve(page));
    let connect: (ok: boolean) => void = () => undefined;
    let ready = false;
    void awaitFirstPage({ loadOlder }, new Promise((resolve) => (connect = resolve))).then(() => (ready = true));
    await Promise.resolve();
    expect(loadOlder).not.toHaveBeenCalled(); // not before the connect: the call would speak for nobody
    connect(true);
    await vi.waitFor(() => expect(ready).toBe(true));
    expect(loadOlder).toHaveBeenCalledTimes(1);
  });

  it('is ready at once when the page does not connect (a broken link), or the page fails', async () => {
    const loadOlder = vi.fn(() => Promise.reject(new Error('4003')));
    await awaitFirstPage({ loadOlder }, Promise.resolve(false));
    expect(loadOlder).not.toHaveBeenCalled();
    await awaitFirstPage({ loadOlder }, Promise.resolve(true));
    expect(loadOlder).toHaveBeenCalledTimes(1);
    await awaitFirstPage({ loadOlder }, Promise.reject(new Error('no keys')));
  });

  it('gives up waiting after its limit (a welcome that does not come), and clears its timer when the page comes first', async () => {
    vi.useFakeTimers();
    let ready = false;
    void awaitFirstPage({ loadOlder: () => new Promise<MessagePage>(() => undefined) }, Promise.resolve(true)).then(() => (ready = true));
    await vi.advanceTimersByTimeAsync(FIRST_PAGE_WAIT_MS - 1);
    expect(ready).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(ready).toBe(true);
    await awaitFirstPage({ loadOlder: () => Promise.resolve(page) }, Promise.resolve(true));
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('issue 24: what a conversation client tells before its chat is mounted is not lost', () => {
  it('holds its notices, in order, until the chat takes them; then holds no more', () => {
    const runtime = new AppRuntime(config);
    const client = runtime.acquire('kefu:a');
    runtime.holdNotices(client);
    runtime.holdNotices(client); // once is enough
    client.emit('notice', notice('serviceBusy'));
    client.emit('notice', notice('networkError'));
    expect(runtime.takeHeldNotices(client).map((n) => n.key)).toEqual(['serviceBusy', 'networkError']);
    client.emit('notice', notice('later'));
    expect(runtime.takeHeldNotices(client)).toEqual([]);
    expect(client.listenerCount('notice')).toBe(0);
    client.destroy();
  });

  it('tells a page that listens later that its conversation client was closed for good (banned before the chat was mounted)', () => {
    created.length = 0;
    const runtime = new AppRuntime(config);
    const client = runtime.acquire('kefu:banned');
    const policy = created.at(-1)?.reconnectPolicy as (ctx: ReconnectContext) => number | null;
    expect(policy({ attempt: 1, elapsedMs: 0, reason: 'close', visible: true, online: true, closeCode: CloseCode.Banned })).toBeNull();
    const late = vi.fn();
    runtime.onFatal(late);
    expect(late.mock.calls).toEqual([[client, CloseCode.Banned]]);
    // an agent's client (not a conversation's) is told to those listening at the time only
    const agent = runtime.create({}, [CloseCode.Unauthorized]);
    const agentPolicy = created.at(-1)?.reconnectPolicy as (ctx: ReconnectContext) => number | null;
    agentPolicy({ attempt: 1, elapsedMs: 0, reason: 'close', visible: true, online: true, closeCode: CloseCode.Unauthorized });
    const later = vi.fn();
    runtime.onFatal(later);
    expect(later.mock.calls).toEqual([[client, CloseCode.Banned]]);
    expect(late.mock.calls.at(-1)).toEqual([agent, CloseCode.Unauthorized]);
    client.destroy();
    agent.destroy();
  });
});
