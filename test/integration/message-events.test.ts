/**
 * The `message` event against the real reference server (issue 23 "own text, two `message`
 * events", issue 24 "caught-up messages"): one message, one event, whether it came on the socket,
 * as the acknowledgement of one's own text, or from the catch-up after a reconnect (then with
 * `caughtUp: true`).
 */
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { MessageType, type StoredMessage, type WebSocketConstructor } from '../../src/index.js';
import { clientsPerTest, DEMO, DEMO_VISITOR, open, sharedServer, type TestServer, waitUntil } from './harness.js';

let server: TestServer;
sharedServer((s) => (server = s));
const clients = clientsPerTest();

/**
 * A visitor's network that the test can make deaf (incoming frames are lost: an acknowledgement
 * and a reply that never arrive) and then cut (every socket dropped, as a network change does).
 */
function deafNetwork(): { WebSocket: WebSocketConstructor; deafen(): void; cut(): void } {
  const sockets = new Set<WebSocket>();
  const net = { deaf: false };
  class Deafened extends WebSocket {
    constructor(url: string) {
      super(url);
      sockets.add(this);
      this.addEventListener('close', () => sockets.delete(this));
      const accessor = Object.getOwnPropertyDescriptor(WebSocket.prototype, 'onmessage');
      Object.defineProperty(this, 'onmessage', {
        configurable: true,
        get: () => accessor?.get?.call(this) as unknown,
        set: (handler: ((e: { data: unknown }) => void) | null) => {
          const deafened = handler && ((e: { data: unknown }) => (net.deaf ? undefined : handler(e)));
          accessor?.set?.call(this, deafened);
        },
      });
    }
  }
  return {
    WebSocket: Deafened as unknown as WebSocketConstructor,
    deafen: () => void (net.deaf = true),
    cut() {
      net.deaf = false; // the next socket hears again
      for (const ws of sockets) ws.terminate();
    },
  };
}

/** Every `message` event of a client, in order. */
function messageEvents(client: { on(event: 'message', listener: (ctx: { message: StoredMessage; caughtUp: boolean }) => void): unknown }) {
  const told: { message: StoredMessage; caughtUp: boolean }[] = [];
  client.on('message', (ctx) => told.push(ctx));
  return told;
}

describe('one message, one `message` event', () => {
  it("one's own text and the robot's reply are told once each, though both reach the client twice (a lost acknowledgement, the resend's, and the catch-up)", async () => {
    const net = deafNetwork();
    const rec = clients.make(server, { connectData: { ...DEMO_VISITOR, language: 'en' }, WebSocket: net.WebSocket });
    const v = rec.client;
    const told = messageEvents(v);
    await open(rec);
    await waitUntil(() => expect(v.messages.getSnapshot().some((m) => m.type === MessageType.RobotText)).toBe(true));

    // The acknowledgement and the robot's reply are lost on the way: the text stays pending.
    net.deafen();
    const question = v.sendText('How do I change my password?');
    const fp = question.fp!;
    const stored = await waitUntil(async () => {
      const rows = await server.store.chat.conversation(v.clientId, DEMO.mchId, DEMO.platformId, { size: 100 });
      const own = rows.find((m) => m.fp === fp);
      const reply = rows.find((m) => m.type === MessageType.RobotText && own !== undefined && (m.seq ?? 0) > (own.seq ?? 0));
      expect(reply).toBeDefined();
      return { reply: reply! };
    });
    expect(v.messages.get(fp)?.sendState).toBe('pending');

    // The network changes: the client reconnects, resends the text (the server acknowledges it
    // again) and catches up on what it missed (the text itself and the reply).
    net.cut();
    await waitUntil(() => expect(rec.logins.map((l) => l.reconnected)).toEqual([false, true]));
    await waitUntil(() => {
      expect(v.messages.get(fp)?.sendState).toBe('sent');
      expect(v.messages.has(stored.reply.fp)).toBe(true);
    });
    // what both ways brought has arrived: the resend's acknowledgement is a frame, the catch-up a page
    await waitUntil(() => expect(rec.frames.some((f) => f.message.fp === fp)).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 300));

    const ofFp = (wanted: string) => told.filter((t) => t.message.fp === wanted);
    expect(ofFp(fp)).toHaveLength(1);
    expect(ofFp(fp)[0]?.message.sendState).toBe('sent');
    expect(ofFp(stored.reply.fp)).toHaveLength(1);
    expect(ofFp(stored.reply.fp)[0]).toMatchObject({ caughtUp: true, message: { robot: 1, type: MessageType.RobotText } });
    // and nothing was told twice
    const fps = told.map((t) => t.message.fp);
    expect(new Set(fps).size).toBe(fps.length);
  });
});
