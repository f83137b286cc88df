/**
 * ImClient as a whole, with injected transports (fake fetch implementing protocol §1 with
 * node:crypto, a scripted WebSocket) and fake timers. The real-server flows are in
 * test/integration.
 */
import { createRequire } from 'node:module';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fixedDelayPolicy, ImClient, ImError, memoryStorage, MessageType, type ChatMessage, type ImClientOptions, type Notice } from '../src/index.js';
import { FakeNetwork, FakeWebSocket } from '../src/socket/test-utils.js';
import { createFakePermit, ecbDecrypt, ecbEncrypt, fakeClientOptions, gcmDecryptNode, makeSocketKey, type FakePermitOptions } from './helpers/fake-permit.js';
import { createHmac } from 'node:crypto';

const require = createRequire(import.meta.url);
const JSEncrypt = require('jsencrypt') as new () => { setPrivateKey(k: string): void; decrypt(s: string): string | false };

const keys = makeSocketKey();

/**
 * The first socket comes after start-up's RSA encryption of the connect parameters (jsencrypt,
 * loaded on first use): seconds on a loaded 2-core machine, not the default second.
 */
const FIRST_SOCKET = { timeout: 10_000 };

function setup(permit: FakePermitOptions = {}, options: Partial<ImClientOptions> = {}) {
  const server = createFakePermit(permit);
  const network = new FakeNetwork();
  const client = new ImClient(fakeClientOptions(server.fetch, keys.socketKey, { window: network, receipts: { autoReadDelay: 0 }, ...options }));
  const notices: Notice[] = [];
  const errors: { error: Error; source: string }[] = [];
  client.on('notice', (n) => notices.push(n));
  client.on('error', (e) => errors.push(e));
  return { client, server, network, notices, errors };
}

/** Starts, connects and opens the socket; the server welcomes user `u1`. */
async function connected(permit: FakePermitOptions = {}, options: Partial<ImClientOptions> = {}) {
  const ctx = setup(permit, options);
  await ctx.client.start();
  ctx.client.connect();
  await vi.waitFor(() => expect(FakeWebSocket.last).toBeDefined(), FIRST_SOCKET);
  const ws = FakeWebSocket.last!;
  ws.open();
  ws.receive(JSON.stringify({ type: 60, to: 'u1', sm: 1_700_000_000_000 }));
  return { ...ctx, ws };
}

function decodeSent(frame: string, token: string, encrypted: boolean): ChatMessage {
  return JSON.parse(encrypted ? ecbDecrypt(token, frame) : frame) as ChatMessage;
}

beforeEach(() => {
  FakeWebSocket.reset();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('construction', () => {
  it('rejects missing endpoints with a clear error', () => {
    expect(() => new ImClient({} as ImClientOptions)).toThrow(/baseUrl, socketUrl and socketKey/);
  });

  it('imports and constructs in plain Node without a window or document', () => {
    const client = new ImClient({ baseUrl: 'http://x', socketUrl: 'ws://x', socketKey: 'a,b', storage: memoryStorage() });
    expect(client.connectionState).toBe('closed');
    expect(client.clientId).toMatch(/^[0-9a-f-]{36}$/);
    client.destroy();
  });
});

describe('start-up (protocol §1): server time, then the AES key and the user token, the AES switch beside them', () => {
  it('loads the keys in order and sends X-Salt-Key and Accept-Language afterwards', async () => {
    const { client, server } = setup({ aesSwitch: true });
    const result = await client.start();
    expect(result.errors).toEqual([]);
    expect(client.ready).toBe(true);
    expect(client.aesSwitch).toBe(true);
    const paths = server.calls.map((c) => c.path);
    expect(paths[0]).toBe('/im/api/permit/getServerTime');
    expect(paths.filter((p) => p !== '/im/api/permit/switchAES')).toEqual([
      '/im/api/permit/getServerTime',
      '/im/api/permit/getAesKey',
      '/im/api/permit/getUserToken',
    ]);
    expect(paths.filter((p) => p === '/im/api/permit/switchAES')).toHaveLength(1);
    const [aes, token] = [server.calls.find((c) => c.path.endsWith('/getAesKey'))!, server.calls.find((c) => c.path.endsWith('/getUserToken'))!];
    expect(aes.url.searchParams.get('requestKey')).toMatch(/^[0-9a-f]{32}$/);
    expect(token.url.searchParams.get('requestKey')).toBe(aes.url.searchParams.get('requestKey'));
    expect(server.calls[0]!.headers.get('accept-language')).toBe('zh');
    await client.api.checkPlatform({ mchId: '7', platformId: '9' }).catch(() => undefined);
    expect(server.calls.at(-1)!.headers.get('x-salt-key')).toBe(server.saltKey);
    client.destroy();
  });

  it('asks for the AES switch beside the keys, not after them (one round trip less), and only after the server time', async () => {
    const server = createFakePermit({ aesSwitch: true });
    let switchAsked!: () => void;
    const asked = new Promise<void>((resolve) => (switchAsked = resolve));
    const seen: string[] = [];
    // the AES key answers only once the switch was asked for (or fails after a second)
    const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      const path = new URL(new Request(input, init).url).pathname;
      seen.push(path.slice(path.lastIndexOf('/') + 1));
      if (path.endsWith('/switchAES')) switchAsked();
      if (path.endsWith('/getAesKey')) {
        const late = await Promise.race([asked.then(() => false), new Promise<boolean>((r) => setTimeout(() => r(true), 1_000))]);
        if (late) return Response.json({ code: 500, message: 'the switch was not asked for beside the keys', data: null });
      }
      return server.fetch(input, init);
    };
    const client = new ImClient(fakeClientOptions(fetch, keys.socketKey, { window: new FakeNetwork() }));
    const result = await client.start();
    expect(result.errors).toEqual([]);
    expect(client.aesSwitch).toBe(true);
    expect(seen.slice(0, 2)).toEqual(['getServerTime', 'switchAES']);
    client.destroy();
  });

  it('a failed AES switch fails the key session (the frames could not be read), reported as a start error', async () => {
    const { client, errors } = setup({ routes: { '/im/api/permit/switchAES': () => new Response('down', { status: 502 }) } });
    const result = await client.start();
    expect(result.session).toBeNull();
    expect(client.ready).toBe(false);
    expect(errors.some((e) => e.source === 'start')).toBe(true);
    client.destroy();
  });

  it('swallows a failed server-time fetch and still loads the keys', async () => {
    const { client, errors } = setup({ routes: { '/im/api/permit/getServerTime': () => new Response('down', { status: 502 }) } });
    const result = await client.start();
    expect(result.serverTime).toBeNull();
    expect(client.ready).toBe(true);
    expect(errors.some((e) => e.source === 'start')).toBe(true);
    client.destroy();
  });

  it('swallows a failed key load: not ready, connect attempts fail without throwing', async () => {
    const { client, errors } = setup({ routes: { '/im/api/permit/getAesKey': () => ({ code: 0, message: '', data: 'AAAA' }) } });
    const result = await client.start();
    expect(result.session).toBeNull();
    expect(client.ready).toBe(false);
    expect(errors.map((e) => e.error.message)).toContain('Invalid key length. Key must be 256 bits (32 bytes).');
    client.destroy();
  });
});

describe('socket connect params (protocol §3), checked with node:crypto', () => {
  it('A decrypts under the RSA-wrapped key and s is the HMAC of the sorted pairs', async () => {
    const { client, server } = setup();
    await client.start();
    client.connect();
    await vi.waitFor(() => expect(FakeWebSocket.last).toBeDefined(), FIRST_SOCKET);
    const url = new URL(FakeWebSocket.last!.url);
    expect(`${url.origin}${url.pathname}`).toBe('ws://im.test/ws');
    const { A, B } = JSON.parse(Buffer.from(url.searchParams.get('params')!, 'base64').toString('utf8')) as { A: string; B: string };
    const rsa = new JSEncrypt();
    rsa.setPrivateKey(keys.privatePem);
    const keyString = rsa.decrypt(B);
    expect(keyString).not.toBe(false);
    const K = Buffer.from(keyString as string, 'base64');
    expect(K).toHaveLength(32);
    const payload = JSON.parse(gcmDecryptNode(K, A)) as { d: unknown; u: string; t: string; s: string };
    expect(payload.d).toEqual({ mchId: 7, platformId: 9 });
    expect(payload.u).toBe(client.clientId);
    expect(payload.t).toBe(server.saltKey);
    const expected = createHmac('sha256', keys.secret).update(`d=${JSON.stringify(payload.d)}&t=${payload.t}&u=${payload.u}`).digest('hex');
    expect(payload.s).toBe(expected);
    client.destroy();
  });
});

describe('on open: socket login, user id from `to`, heartbeat every 20 s', () => {
  it('emits socket login, takes the user id from the welcome and resets the clock from sm', async () => {
    const ctx = setup();
    const logins: boolean[] = [];
    ctx.client.on('socket login', ({ reconnected }) => logins.push(reconnected));
    await ctx.client.start();
    ctx.client.connect();
    await vi.waitFor(() => expect(FakeWebSocket.last).toBeDefined(), FIRST_SOCKET);
    FakeWebSocket.last!.open();
    FakeWebSocket.last!.receive(JSON.stringify({ type: 60, to: 'visitor-1', sm: 1_234_000 }));
    expect(logins).toEqual([false]);
    expect(ctx.client.userId).toBe('visitor-1');
    expect(ctx.client.clock.now()).toBe(1_234_000);
    ctx.client.destroy();
  });

  it('spec §4: a heartbeat reply (type 51) resets the server clock from its sm, and is no message', async () => {
    const { client, ws } = await connected();
    const welcomeTime = 1_700_000_000_000;
    expect(client.clock.now() - welcomeTime).toBeLessThan(5_000);
    const replyTime = welcomeTime + 3_600_000; // the server's clock, an hour on
    ws.receive(JSON.stringify({ type: 51, sm: replyTime }));
    expect(client.clock.now() - replyTime).toBeGreaterThanOrEqual(0);
    expect(client.clock.now() - replyTime).toBeLessThan(5_000);
    ws.receive(JSON.stringify({ type: 51 })); // a reply without sm leaves the clock where it is
    expect(client.clock.now() - replyTime).toBeGreaterThanOrEqual(0);
    expect(client.messages.size).toBe(0);
    client.destroy();
  });

  it('sends type 1 with dataContent "{}" from the user id every 20 000 ms', async () => {
    const { client, ws } = await connected();
    vi.useFakeTimers();
    // the connection armed its interval with real timers; reconnect under fake timers
    client.disconnect();
    client.connect();
    await vi.waitFor(() => expect(FakeWebSocket.instances.length).toBe(2));
    const ws2 = FakeWebSocket.last!;
    ws2.open();
    vi.advanceTimersByTime(19_999);
    expect(ws2.sent).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(ws2.sentJson()).toEqual([{ type: 1, dataContent: '{}', from: 'u1' }]);
    vi.advanceTimersByTime(20_000);
    expect(ws2.sent).toHaveLength(2);
    expect(ws.sent).toHaveLength(0);
    client.destroy();
  });
});

describe('sending: pending until acknowledged, then sent; failed on refusal', () => {
  it('a text is sent as JSON when the AES switch is off and becomes sent on the echo', async () => {
    const { client, ws } = await connected();
    const states: string[] = [];
    client.on('send state', ({ state }) => states.push(state));
    const msg = client.sendText('hello face[微笑]');
    expect(msg.sendState).toBe('pending');
    const wire = JSON.parse(ws.sent[0]!) as ChatMessage;
    expect(wire).toMatchObject({ type: 100, from: 'u1', dataContent: 'hello face[微笑]', fp: msg.fp, mchId: 7 });
    ws.receive(JSON.stringify({ ...wire, createTime: 1_700_000_000_500 }));
    expect(client.messages.get(msg.fp!)!.sendState).toBe('sent');
    expect(client.messages.size).toBe(1);
    expect(states).toEqual(['pending', 'sent']);
    client.destroy();
  });

  it('frames are AES-ECB encrypted with the user token when the switch is on, and encrypted frames are decoded', async () => {
    const { client, ws, server } = await connected({ aesSwitch: true });
    const seen: boolean[] = [];
    client.on('socket message', ({ encrypted }) => seen.push(encrypted));
    const msg = client.sendText('secret');
    const wire = decodeSent(ws.sent[0]!, server.token, true);
    expect(wire.dataContent).toBe('secret');
    ws.receive(ecbEncrypt(server.token, JSON.stringify({ ...wire, createTime: 5 })));
    expect(seen).toEqual([true]);
    expect(client.messages.get(msg.fp!)!.sendState).toBe('sent');
    client.destroy();
  });

  it('a blank message cannot be sent (notice blankMessage, ImError blank)', async () => {
    const { client, notices } = await connected();
    expect(() => client.sendText('   ')).toThrow(ImError);
    expect(notices.map((n) => n.key)).toEqual(['blankMessage']);
    expect(notices[0]!.duration).toBe(2000);
    expect(client.messages.size).toBe(0);
    client.destroy();
  });

  it('a too-frequent refusal fails the message with its reason; retry resends the same fp', async () => {
    const { client, ws, notices } = await connected();
    const msg = client.sendText('fast');
    ws.receive(JSON.stringify({ type: 500, dataContent: JSON.stringify({ reason: 'too-frequent', fp: msg.fp }) }));
    expect(client.messages.get(msg.fp!)).toMatchObject({ sendState: 'failed', failReason: 'too-frequent' });
    expect(notices.map((n) => n.key)).toEqual(['sendTooFrequent']);
    const again = client.retry(msg.fp!);
    expect(again.sendState).toBe('pending');
    expect((JSON.parse(ws.sent[1]!) as ChatMessage).fp).toBe(msg.fp);
    client.destroy();
  });

  it('a refused frame the client keeps no message of (a transfer, 314) tells only its sender (the refusal event), no sendFailed notice', async () => {
    const { client, ws, notices } = await connected();
    const refusals: string[] = [];
    client.on('refusal', ({ reason }) => refusals.push(reason));
    const transfer = client.send({ type: MessageType.AgentTransfer, dataContent: JSON.stringify({ clientId: 'v1', to: 'agent:bob' }) });
    ws.receive(JSON.stringify({ type: 500, dataContent: JSON.stringify({ reason: 'at-capacity', fp: transfer.fp }) }));
    expect(refusals).toEqual(['at-capacity']);
    expect(notices).toEqual([]);
    // a refused message still says so: a text, and a control message kept in the outbox (302)
    const text = client.sendText('refused');
    ws.receive(JSON.stringify({ type: 500, dataContent: JSON.stringify({ reason: 'not-allowed', fp: text.fp }) }));
    const end = client.endConversation();
    ws.receive(JSON.stringify({ type: 500, dataContent: JSON.stringify({ reason: 'not-allowed', fp: end.fp }) }));
    ws.receive(JSON.stringify({ type: 500, dataContent: JSON.stringify({ reason: 'not-allowed' }) }));
    expect(notices.map((n) => n.key)).toEqual(['sendFailed', 'sendFailed', 'sendFailed']);
    client.destroy();
  });

  it('a frame over the 64 KiB limit fails at once', async () => {
    const { client, ws } = await connected();
    const msg = client.sendText('x'.repeat(70_000));
    expect(client.messages.get(msg.fp!)).toMatchObject({ sendState: 'failed', failReason: 'too-large' });
    expect(ws.sent).toHaveLength(0);
    client.destroy();
  });
});

describe('outbox: messages wait while the socket is down and are resent after reconnect', () => {
  it('resends pending messages on open, fetches what was missed, and keeps one message per fp', async () => {
    const history = vi.fn(() => ({ code: 0, message: 'ok', data: { list: [{ type: 200, fp: 'robot-1', from: 'robot', to: 'u1', dataContent: 'hi', createTime: 900, robot: 1 }], hasMore: false } }));
    const { client, ws, server } = await connected({ routes: { '/im/api/permit/findMsgForCus': history } });
    ws.receive(JSON.stringify({ type: 100, fp: 'in-1', from: 'agent:a', to: 'u1', dataContent: 'earlier', createTime: 800 }));
    ws.serverClose(1006, 'gone');
    expect(client.connectionState).toBe('reconnecting');
    const msg = client.sendText('while away');
    expect(ws.sent.filter((f) => f.includes('while away'))).toHaveLength(0);
    client.connect();
    await vi.waitFor(() => expect(FakeWebSocket.instances.length).toBe(2));
    const ws2 = FakeWebSocket.last!;
    ws2.open();
    const resent = ws2.sentJson() as ChatMessage[];
    expect(resent.map((m) => m.fp)).toContain(msg.fp);
    // the catch-up waits for the welcome: only an accepted connect binds the key session (protocol §3a)
    expect(history).not.toHaveBeenCalled();
    ws2.receive(JSON.stringify({ type: 60, to: 'u1', sm: 1_700_000_000_000 }));
    await vi.waitFor(() => expect(history).toHaveBeenCalled());
    const call = server.calls.find((c) => c.path.endsWith('findMsgForCus'))!;
    expect(call.payload).toMatchObject({ clientId: client.clientId, mchId: 7, platformId: 9, after: 800 });
    await vi.waitFor(() => expect(client.messages.has('robot-1')).toBe(true));
    // the server acknowledges the resend; a duplicate delivery of the same fp is merged
    const wire = resent.find((m) => m.fp === msg.fp)!;
    ws2.receive(JSON.stringify({ ...wire, createTime: 1000 }));
    ws2.receive(JSON.stringify({ ...wire, createTime: 1000 }));
    expect(client.messages.getSnapshot().filter((m) => m.fp === msg.fp)).toHaveLength(1);
    expect(client.messages.get(msg.fp!)!.sendState).toBe('sent');
    client.destroy();
  });

  it('after the reconnect limit the state is failed but attempts go on and the pending text goes out when back', async () => {
    vi.useFakeTimers();
    const ctx = setup({}, { limits: { maxReconnectAttempts: 2, reconnectDelay: 5000 } });
    await ctx.client.start();
    ctx.client.connect();
    await vi.waitFor(() => expect(FakeWebSocket.last).toBeDefined(), FIRST_SOCKET);
    const msg = ctx.client.sendText('kept');
    for (let i = 0; i < 3; i++) {
      const count = FakeWebSocket.instances.length;
      FakeWebSocket.last!.fail();
      if (i < 2) {
        await vi.advanceTimersByTimeAsync(5000);
        await vi.waitFor(() => expect(FakeWebSocket.instances.length).toBe(count + 1));
      }
    }
    expect(ctx.client.connectionState).toBe('failed');
    expect(ctx.client.connectionStore.getSnapshot()).toMatchObject({ state: 'failed', failed: true, halted: false, attempt: 3 });
    expect(ctx.client.messages.get(msg.fp!)).toMatchObject({ sendState: 'pending' });
    const count = FakeWebSocket.instances.length;
    await vi.advanceTimersByTimeAsync(10_000); // the slow phase: at most the visible cap
    await vi.waitFor(() => expect(FakeWebSocket.instances.length).toBe(count + 1));
    FakeWebSocket.last!.open();
    expect(ctx.client.connectionState).toBe('open');
    expect(FakeWebSocket.last!.sentJson()).toContainEqual(expect.objectContaining({ fp: msg.fp, dataContent: 'kept' }));
    ctx.client.destroy();
  });

  it('with fixedDelayPolicy the reconnect limit is final and pending messages become failed', async () => {
    vi.useFakeTimers();
    const ctx = setup({}, { limits: { maxReconnectAttempts: 2, reconnectDelay: 5000 }, reconnectPolicy: fixedDelayPolicy(5000, 2) });
    await ctx.client.start();
    ctx.client.connect();
    await vi.waitFor(() => expect(FakeWebSocket.last).toBeDefined(), FIRST_SOCKET);
    const msg = ctx.client.sendText('lost?');
    for (let i = 0; i < 3; i++) {
      const count = FakeWebSocket.instances.length;
      FakeWebSocket.last!.fail();
      if (i < 2) {
        await vi.advanceTimersByTimeAsync(5000);
        await vi.waitFor(() => expect(FakeWebSocket.instances.length).toBe(count + 1));
      }
    }
    expect(ctx.client.connectionState).toBe('failed');
    expect(ctx.client.messages.get(msg.fp!)).toMatchObject({ sendState: 'failed', failReason: 'network' });
    expect(ctx.notices.map((n) => n.key)).toContain('sendFailed');
    ctx.client.destroy();
  });
});

describe('incoming frames', () => {
  it('a frame that neither parses nor decrypts is an error event, never an exception', async () => {
    const { client, ws, errors } = await connected();
    expect(() => ws.receive('%%% not json, not base64 %%%')).not.toThrow();
    expect(errors.map((e) => e.source)).toEqual(['frame']);
    client.destroy();
  });

  it('every message is emitted as socket message, unknown types included', async () => {
    const { client, ws } = await connected();
    const types: number[] = [];
    client.on('socket message', ({ message }) => types.push(message.type));
    ws.receive(JSON.stringify({ type: 51, sm: 5, to: 'u1' }));
    ws.receive(JSON.stringify({ type: 777, dataContent: 'future' }));
    expect(types).toEqual([51, 777]);
    expect(client.messages.getSnapshot().map((m) => m.type)).toEqual([777]);
    client.destroy();
  });

  it('a visible page answers a received message with a type-104 receipt at once', async () => {
    const { client, ws } = await connected();
    ws.receive(JSON.stringify({ type: 100, fp: 'm-1', from: 'agent:a', to: 'u1', fn: 'Alice', tn: 'Me', dataContent: 'hi', createTime: 1_700_000_000_000, mchId: 7 }));
    const receipt = ws.sentJson().find((m) => (m as ChatMessage).type === 104) as ChatMessage;
    expect(receipt).toMatchObject({ from: 'u1', to: 'agent:a', fn: 'Me', tn: 'Alice', dataContent: 'm-1', mchId: 7, cm: 1_700_000_000_000 });
    expect(receipt.fp).not.toBe('m-1');
    client.destroy();
  });

  it('an incoming receipt marks our message read', async () => {
    const { client, ws } = await connected();
    const msg = client.sendText('read me');
    ws.receive(JSON.stringify({ ...(JSON.parse(ws.sent[0]!) as object), createTime: 10 }));
    const receipts: string[] = [];
    client.on('receipt', ({ fp }) => receipts.push(fp));
    ws.receive(JSON.stringify({ type: 104, from: 'agent:a', to: 'u1', dataContent: msg.fp, fp: 'r-1', cm: 10 }));
    expect(receipts).toEqual([msg.fp]);
    expect(client.messages.get(msg.fp!)!.isRead).toBe(1);
    client.destroy();
  });

  it('session events and suggestions update the session store; busy shows the busy notice', async () => {
    const { client, ws, notices } = await connected();
    ws.receive(JSON.stringify({ type: 201, dataContent: JSON.stringify([{ id: 1, question: 'How to deposit?' }]) }));
    ws.receive(JSON.stringify({ type: 300, dataContent: JSON.stringify({ event: 'queued', sessionId: 's1', position: 2, busy: true }) }));
    expect(client.session.getState()).toMatchObject({ status: 'queued', position: 2, busy: true, sessionId: 's1' });
    expect(client.session.getState().suggestions).toEqual([{ id: 1, question: 'How to deposit?' }]);
    ws.receive(JSON.stringify({ type: 300, dataContent: JSON.stringify({ event: 'agent-joined', sessionId: 's1', agent: { id: 'agent:a', name: 'Alice' } }) }));
    expect(client.session.getState()).toMatchObject({ status: 'agent', agent: { name: 'Alice' }, position: null });
    ws.receive(JSON.stringify({ type: 300, dataContent: JSON.stringify({ event: 'ended', sessionId: 's1' }) }));
    ws.receive(JSON.stringify({ type: 300, dataContent: JSON.stringify({ event: 'rate-invite', sessionId: 's1' }) }));
    expect(client.session.getState()).toMatchObject({ status: 'ended', rateInvited: true });
    expect(notices.map((n) => n.key)).toEqual(['serviceBusy', 'conversationOver']);
    client.destroy();
  });
});

describe('rating', () => {
  it('a rating must be chosen (1 to 5)', async () => {
    const { client, notices } = await connected();
    await expect(client.rate(0)).rejects.toThrow(ImError);
    expect(notices.map((n) => n.key)).toEqual(['rateRequired']);
    client.destroy();
  });

  it('markScore carries the session id; a server refusal rejects with its message as a notice', async () => {
    let n = 0;
    const { client, ws, notices, server } = await connected({
      routes: {
        '/im/api/permit/markScore': () => (++n === 1 ? { code: 0, message: 'ok', data: { sessionId: 's1', score: 5 } } : { code: 2002, message: 'You have commented already', data: null }),
      },
    });
    ws.receive(JSON.stringify({ type: 300, dataContent: JSON.stringify({ event: 'rate-invite', sessionId: 's1' }) }));
    await client.rate(5, 'great');
    expect(server.calls.at(-1)!.payload).toEqual({ clientId: client.clientId, mchId: 7, platformId: 9, sessionId: 's1', score: 5, remark: 'great' });
    await expect(client.rate(4)).rejects.toMatchObject({ code: 2002 });
    expect(notices.at(-1)!.text).toBe('You have commented already');
    client.destroy();
  });
});

describe('history paging', () => {
  it('loadOlder asks for messages before the oldest held and merges them', async () => {
    const page = { list: [{ type: 100, fp: 'old-1', from: 'u1', dataContent: 'old', createTime: 100 }], hasMore: true };
    const { client, ws, server } = await connected({ routes: { '/im/api/permit/findMsgForCus': () => ({ code: 0, message: 'ok', data: page }) } });
    ws.receive(JSON.stringify({ type: 100, fp: 'new-1', from: 'agent:a', to: 'u1', dataContent: 'new', createTime: 500 }));
    const result = await client.loadOlder(10);
    expect(result.hasMore).toBe(true);
    expect(server.calls.at(-1)!.payload).toMatchObject({ before: 500, size: 10 });
    expect(client.messages.getSnapshot().map((m) => m.fp)).toEqual(['old-1', 'new-1']);
    client.destroy();
  });

  it('a group conversation pages with clientGroupMsgList', async () => {
    const { client, server } = await connected(
      { routes: { '/im/api/permit/clientGroupMsgList': () => ({ code: 0, message: 'ok', data: { list: [], hasMore: false } }) } },
      { connectData: { mchId: 7, platformId: 9, groupId: 'g1' } },
    );
    await client.loadOlder();
    expect(server.calls.at(-1)!.payload).toMatchObject({ groupId: 'g1', clientId: client.clientId });
    client.destroy();
  });
});

describe('offline and online', () => {
  it('offline closes the socket and stops sending; online reconnects and resends', async () => {
    const { client, ws, network } = await connected();
    const nets: boolean[] = [];
    client.on('network', ({ online }) => nets.push(online));
    network.goOffline();
    expect(ws.readyState).toBe(3);
    const msg = client.sendText('offline text');
    network.goOnline();
    await vi.waitFor(() => expect(FakeWebSocket.instances.length).toBe(2));
    FakeWebSocket.last!.open();
    expect((FakeWebSocket.last!.sentJson() as ChatMessage[]).map((m) => m.fp)).toContain(msg.fp);
    expect(nets).toEqual([false, true]);
    client.destroy();
  });
});

describe('language', () => {
  it('loads another language lazily, persists it and translates notices', async () => {
    const storage = memoryStorage();
    const { client } = setup({}, { storage, language: 'en' });
    await client.start();
    expect(client.i18n.language).toBe('en');
    expect(client.t('blankMessage')).toBe('Cannot send blank message');
    expect(client.state.getState().language).toBe('en');
    await client.setLanguage('pt-BR');
    expect(client.i18n.language).toBe('pt');
    client.destroy();
  });
});

describe('destroy', () => {
  it('forbids reconnects and clears every timer', async () => {
    vi.useFakeTimers();
    const { client } = setup({}, { document: null });
    await client.start();
    client.connect();
    await vi.waitFor(() => expect(FakeWebSocket.last).toBeDefined(), FIRST_SOCKET);
    FakeWebSocket.last!.open();
    expect(vi.getTimerCount()).toBeGreaterThan(0);
    client.destroy();
    expect(vi.getTimerCount()).toBe(0);
    client.connect();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(FakeWebSocket.instances).toHaveLength(1);
    expect(() => client.sendText('x')).toThrow(/destroyed/);
    await expect(client.start()).rejects.toThrow(/destroyed/);
  });
});

describe('close codes (docs/protocol.md): 4003 banned never reconnects, 4001 renews the key session', () => {
  it('a banned visitor (4003) is not reconnected', async () => {
    vi.useFakeTimers();
    const ctx = setup();
    await ctx.client.start();
    ctx.client.connect();
    await vi.waitFor(() => expect(FakeWebSocket.last).toBeDefined(), FIRST_SOCKET);
    FakeWebSocket.last!.open();
    FakeWebSocket.last!.serverClose(4003, 'banned');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakeWebSocket.instances).toHaveLength(1);
    expect(ctx.client.connectionState).toBe('failed');
    ctx.client.destroy();
  });

  it('after 4001 the next attempt runs the key exchange again', async () => {
    vi.useFakeTimers();
    const ctx = setup();
    await ctx.client.start();
    ctx.client.connect();
    await vi.waitFor(() => expect(FakeWebSocket.last).toBeDefined(), FIRST_SOCKET);
    FakeWebSocket.last!.serverClose(4001, 'unauthorized');
    const before = ctx.server.calls.filter((c) => c.path.endsWith('getUserToken')).length;
    await vi.advanceTimersByTimeAsync(5_000);
    await vi.waitFor(() => expect(FakeWebSocket.instances).toHaveLength(2));
    expect(ctx.server.calls.filter((c) => c.path.endsWith('getUserToken')).length).toBe(before + 1);
    ctx.client.destroy();
  });
});

describe('merchant info', () => {
  it('loadMerchantInfo fetches getMerchantById with the connect data and persists it in the client state', async () => {
    const info = { mchId: 7, platformId: 9, name: 'Shop', kefuAvatar2: 'https://cdn.example/a.png' };
    const { client, server } = setup({ routes: { '/im/api/permit/getMerchantById': () => ({ code: 0, message: 'ok', data: info }) } });
    await client.start();
    await expect(client.loadMerchantInfo()).resolves.toEqual(info);
    expect(server.calls.at(-1)!.payload).toEqual({ mchId: 7, platformId: 9 });
    expect(client.state.getState().merchantInfo).toEqual(info);
    client.destroy();
  });
});

describe('refused connects count as failed attempts even though the socket opened first', () => {
  it('a wrong socket key (4001 after open) ends in failed after maxReconnectAttempts', async () => {
    vi.useFakeTimers();
    const ctx = setup({}, { limits: { maxReconnectAttempts: 3, reconnectDelay: 1000 } });
    await ctx.client.start();
    ctx.client.connect();
    for (let i = 0; i < 4; i++) {
      await vi.waitFor(() => expect(FakeWebSocket.instances).toHaveLength(i + 1));
      FakeWebSocket.last!.open();
      FakeWebSocket.last!.serverClose(4001, 'unauthorized');
      await vi.advanceTimersByTimeAsync(1000);
    }
    expect(ctx.client.connectionState).toBe('failed');
    expect(FakeWebSocket.instances).toHaveLength(4);
    ctx.client.destroy();
  });

  it('the welcome proves the connect check passed and resets the refusal count', async () => {
    vi.useFakeTimers();
    const ctx = setup({}, { limits: { maxReconnectAttempts: 1, reconnectDelay: 1000 } });
    await ctx.client.start();
    ctx.client.connect();
    await vi.waitFor(() => expect(FakeWebSocket.instances).toHaveLength(1));
    FakeWebSocket.last!.open();
    FakeWebSocket.last!.serverClose(4001, 'unauthorized');
    await vi.advanceTimersByTimeAsync(1000);
    await vi.waitFor(() => expect(FakeWebSocket.instances).toHaveLength(2));
    FakeWebSocket.last!.open();
    FakeWebSocket.last!.receive(JSON.stringify({ type: 60, to: 'u1', sm: 1 }));
    FakeWebSocket.last!.serverClose(4001, 'unauthorized');
    await vi.advanceTimersByTimeAsync(1000);
    await vi.waitFor(() => expect(FakeWebSocket.instances).toHaveLength(3));
    expect(ctx.client.connectionState).not.toBe('failed');
    ctx.client.destroy();
  });
});

describe('agents do not run the visitor catch-up call after a reconnect', () => {
  it('role agent: no findMsgForCus on reopen', async () => {
    const { client, ws, server } = await connected({}, { connectData: { role: 'agent', account: 'alice', password: 'x' } });
    ws.serverClose(1006, '');
    client.connect();
    await vi.waitFor(() => expect(FakeWebSocket.instances).toHaveLength(2));
    FakeWebSocket.last!.open();
    await new Promise((r) => setTimeout(r, 20));
    expect(server.calls.some((c) => c.path.endsWith('findMsgForCus'))).toBe(false);
    client.destroy();
  });
});

describe('history pages hold session events and suggestions too', () => {
  it('loadOlder adds only chat content and pages past a page of events', async () => {
    const pages = [
      { list: [{ type: 300, fp: 'ev-1', dataContent: JSON.stringify({ event: 'ended', sessionId: 's0' }), createTime: 300 }], hasMore: true },
      { list: [{ type: 100, fp: 'old-1', from: 'u1', dataContent: 'old', createTime: 200 }], hasMore: false },
    ];
    let n = 0;
    const { client, ws, server } = await connected({ routes: { '/im/api/permit/findMsgForCus': () => ({ code: 0, message: 'ok', data: pages[n++] }) } });
    ws.receive(JSON.stringify({ type: 100, fp: 'new-1', from: 'agent:a', to: 'u1', dataContent: 'new', createTime: 500 }));
    await client.loadOlder();
    expect(client.messages.getSnapshot().map((m) => m.fp)).toEqual(['new-1']);
    expect(client.session.getState().status).toBe('robot'); // an old 'ended' is history, not state
    await client.loadOlder();
    const befores = server.calls.filter((c) => c.path.endsWith('findMsgForCus')).map((c) => (c.payload as { before?: number }).before);
    expect(befores).toEqual([500, 300]);
    expect(client.messages.getSnapshot().map((m) => m.fp)).toEqual(['old-1', 'new-1']);
    client.destroy();
  });

  it('fetchMissed handles missed messages as if they had arrived: an agent joined while away', async () => {
    const missed = {
      list: [
        { type: 300, fp: 'ev-2', dataContent: JSON.stringify({ event: 'agent-joined', sessionId: 's1', agent: { id: 'agent:a', name: 'Alice' } }), createTime: 900 },
        { type: 100, fp: 'hi-1', from: 'agent:a', to: 'u1', dataContent: 'hello', createTime: 901 },
      ],
      hasMore: false,
    };
    const { client, ws } = await connected({ routes: { '/im/api/permit/findMsgForCus': () => ({ code: 0, message: 'ok', data: missed }) } });
    await client.fetchMissed();
    expect(client.session.getState()).toMatchObject({ status: 'agent', agent: { name: 'Alice' } });
    expect(client.messages.getSnapshot().map((m) => m.fp)).toEqual(['hi-1']);
    // the page is visible: the missed message is acknowledged
    expect((ws.sentJson() as ChatMessage[]).some((m) => m.type === 104 && m.dataContent === 'hi-1')).toBe(true);
    client.destroy();
  });
});

describe('page lifecycle through the client', () => {
  it('pagehide persisted closes cleanly; pageshow persisted reconnects and fetches what was missed', async () => {
    const history = vi.fn(() => ({ code: 0, message: 'ok', data: { list: [{ type: 100, fp: 'missed-1', from: 'agent:a', to: 'u1', dataContent: 'while cached', createTime: 950 }], hasMore: false } }));
    const { client, ws, network, server } = await connected({ routes: { '/im/api/permit/findMsgForCus': history } });
    ws.receive(JSON.stringify({ type: 100, fp: 'in-1', from: 'agent:a', to: 'u1', dataContent: 'before', createTime: 900 }));
    network.dispatchEvent(Object.assign(new Event('pagehide'), { persisted: true }));
    expect(ws.closedByClient).toEqual({ code: 1000, reason: 'page hidden' });
    expect(client.connectionStore.getSnapshot()).toMatchObject({ state: 'reconnecting', nextAttemptAt: null, lastCloseCode: 1000 });
    network.dispatchEvent(Object.assign(new Event('pageshow'), { persisted: true }));
    await vi.waitFor(() => expect(FakeWebSocket.instances).toHaveLength(2));
    FakeWebSocket.last!.open();
    // the catch-up follows the welcome: only an accepted connect binds the key session (protocol §3a)
    FakeWebSocket.last!.receive(JSON.stringify({ type: 60, to: 'u1', sm: 1_700_000_000_000 }));
    await vi.waitFor(() => expect(client.messages.has('missed-1')).toBe(true));
    expect(server.calls.find((c) => c.path.endsWith('findMsgForCus'))!.payload).toMatchObject({ after: 900 });
    client.destroy();
  });

  it('the catch-up after a reconnect starts where the dropped socket left off: neither the echo of a text resent on the new socket, a new message arriving with the welcome, nor an own text stamped after a message still on its way moves it on', async () => {
    const history = vi.fn(() => ({ code: 0, message: 'ok', data: { list: [], hasMore: false } }));
    const { client, ws, server } = await connected({ routes: { '/im/api/permit/findMsgForCus': history } });
    ws.receive(JSON.stringify({ type: 100, fp: 'a-6', from: 'agent:a', to: 'u1', dataContent: 'a6', createTime: 900, seq: 6 }));
    // the visitor's text is stamped 8 and echoed at once by its node; the agent's seq 7 was on its way through another node
    const { fp } = client.sendText('v8');
    ws.receive(JSON.stringify({ type: 100, fp, from: 'u1', to: 'agent:a', dataContent: 'v8', createTime: 910, seq: 8 }));
    ws.serverClose(1006, '');
    const pending = client.sendText('v9 written while away');
    client.connect();
    await vi.waitFor(() => expect(FakeWebSocket.instances).toHaveLength(2));
    const socket = FakeWebSocket.last!;
    socket.open();
    // with the welcome, in the same read: the echo of the resent text and a new message of the agent
    socket.receive(JSON.stringify({ type: 60, to: 'u1', sm: 1_700_000_000_000 }));
    socket.receive(JSON.stringify({ type: 100, fp: pending.fp, from: 'u1', to: 'agent:a', dataContent: 'v9 written while away', createTime: 950, seq: 17 }));
    socket.receive(JSON.stringify({ type: 100, fp: 'a-18', from: 'agent:a', to: 'u1', dataContent: 'a18', createTime: 960, seq: 18 }));
    await vi.waitFor(() => expect(server.calls.some((c) => c.path.endsWith('findMsgForCus'))).toBe(true));
    expect(server.calls.find((c) => c.path.endsWith('findMsgForCus'))!.payload).toMatchObject({ afterSeq: 6 });
    client.destroy();
  });

  it('client.reconnect() tries at once from failed, even after a 4003 close, which is otherwise final', async () => {
    const { client, ws, network } = await connected();
    ws.serverClose(4003, 'banned');
    expect(client.connectionStore.getSnapshot()).toMatchObject({ state: 'failed', halted: true, lastCloseCode: 4003 });
    network.goOffline();
    network.goOnline();
    network.dispatchEvent(new Event('focus'));
    await new Promise((r) => setTimeout(r, 20));
    expect(FakeWebSocket.instances).toHaveLength(1);
    client.reconnect();
    await vi.waitFor(() => expect(FakeWebSocket.instances).toHaveLength(2));
    FakeWebSocket.last!.open();
    expect(client.connectionStore.getSnapshot()).toMatchObject({ state: 'open', halted: false, failed: false });
    client.destroy();
  });
});

describe('destroy() leaves no listener and no timer behind', () => {
  /** An event target that counts the listeners still registered. */
  class Counting extends FakeNetwork {
    active = 0;
    visibilityState = 'visible';
    override addEventListener(...args: Parameters<EventTarget['addEventListener']>): void {
      this.active++;
      super.addEventListener(...args);
    }
    override removeEventListener(...args: Parameters<EventTarget['removeEventListener']>): void {
      this.active--;
      super.removeEventListener(...args);
    }
  }

  it('window and document listeners (network, lifecycle, visibility) and every timer are gone', async () => {
    vi.useFakeTimers();
    const win = new Counting();
    const doc = new Counting();
    const ctx = setup({}, { window: win, document: doc });
    await ctx.client.start();
    ctx.client.connect();
    await vi.waitFor(() => expect(FakeWebSocket.last).toBeDefined(), FIRST_SOCKET);
    FakeWebSocket.last!.open();
    FakeWebSocket.last!.receive(JSON.stringify({ type: 60, to: 'u1', sm: 1_700_000_000_000 }));
    ctx.client.clock.subscribe(() => undefined);
    doc.visibilityState = 'hidden';
    doc.dispatchEvent(new Event('visibilitychange'));
    await vi.advanceTimersByTimeAsync(30_000);
    doc.visibilityState = 'visible';
    doc.dispatchEvent(new Event('visibilitychange')); // a liveness check is now running
    expect(win.active).toBeGreaterThan(0);
    expect(doc.active).toBeGreaterThan(0);
    expect(vi.getTimerCount()).toBeGreaterThan(0);
    ctx.client.destroy();
    expect(win.active).toBe(0);
    expect(doc.active).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});
