/**
 * Incoming frames that arrive together notify the message list's readers once: in a browser each
 * WebSocket frame is a task of its own, so the client ends a burst with a zero-delay timer of its
 * (injectable) timers, not with the microtasks. A re-render per frame costs O(messages held).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ImClient, type ChatMessage } from '../src/index.js';
import { FakeNetwork, FakeWebSocket } from '../src/socket/test-utils.js';
import { createFakePermit, fakeClientOptions, makeSocketKey } from './helpers/fake-permit.js';

const keys = makeSocketKey();
const nextTask = (): Promise<void> => new Promise((r) => setImmediate(r));

beforeEach(() => FakeWebSocket.reset());
let client: ImClient | undefined;
afterEach(() => client?.destroy());

async function connected(): Promise<FakeWebSocket> {
  const server = createFakePermit({});
  client = new ImClient(fakeClientOptions(server.fetch, keys.socketKey, { window: new FakeNetwork(), receipts: { autoReadDelay: 0 } }));
  await client.start();
  client.connect();
  // the first socket follows the RSA encryption of the connect parameters: seconds on a loaded machine
  await vi.waitFor(() => expect(FakeWebSocket.last).toBeDefined(), { timeout: 10_000 });
  const ws = FakeWebSocket.last!;
  ws.open();
  ws.receive(JSON.stringify({ type: 60, to: 'u1', sm: 1_700_000_000_000 }));
  return ws;
}

/** A connected client, and the list's length at each notification its readers get. */
async function watched(): Promise<{ ws: FakeWebSocket; c: ImClient; seen: number[] }> {
  const ws = await connected();
  const c = client!;
  const seen: number[] = [];
  c.messages.subscribe(() => seen.push(c.messages.getSnapshot().length));
  return { ws, c, seen };
}

const text = (n: number): ChatMessage => ({ type: 100, fp: `m-${n}`, from: 'agent:a', to: 'u1', fn: 'Alice', tn: 'Me', dataContent: `text ${n}`, createTime: 1_700_000_000_000 + n });

describe('a burst of incoming texts, each frame in a task of its own', () => {
  it('notifies the first at once and the rest once, when the zero-delay timer runs; every receipt goes at once', async () => {
    const { ws, c, seen } = await watched();
    ws.receive(JSON.stringify(text(1)));
    expect(seen).toEqual([1]);
    for (let n = 2; n <= 5; n++) {
      await Promise.resolve(); // the microtasks run between frames, and do not end the burst
      ws.receive(JSON.stringify(text(n)));
    }
    expect(seen).toEqual([1]);
    expect(c.messages.getSnapshot()).toHaveLength(5); // reads see each frame at once
    expect(ws.sentJson().filter((m) => (m as ChatMessage).type === 104)).toHaveLength(5);
    await new Promise((r) => setTimeout(r, 5));
    expect(seen).toEqual([1, 5]);
    await nextTask();
    ws.receive(JSON.stringify(text(6))); // a new burst
    expect(seen).toEqual([1, 5, 6]);
  });

  it('a change of the page itself (a sent text) still notifies at once, with the deferred frames in it', async () => {
    const { ws, c, seen } = await watched();
    ws.receive(JSON.stringify(text(1)));
    ws.receive(JSON.stringify(text(2)));
    expect(seen).toEqual([1]);
    c.sendText('mine');
    expect(seen[1]).toBe(3);
  });

  it('destroy() ends an open burst at once: its readers are told, and no timer of the client is left to tell them later', async () => {
    const { ws, c, seen } = await watched();
    ws.receive(JSON.stringify(text(1)));
    ws.receive(JSON.stringify(text(2)));
    ws.receive(JSON.stringify(text(3)));
    expect(seen).toEqual([1]);
    c.destroy();
    expect(seen).toEqual([1, 3]);
    await new Promise((r) => setTimeout(r, 5));
    expect(seen).toEqual([1, 3]);
  });
});
