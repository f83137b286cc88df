/**
 * WriteBatch: the frames of one event-loop turn leave a socket in one system call, in order, as
 * separate WebSocket frames. Alone with a fake stream, then on a real loopback upgrade (`ws`).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { WriteBatch, type Corkable } from '../../src/socket/write-batch.js';

class FakeStream implements Corkable {
  readonly calls: string[] = [];
  cork(): void {
    this.calls.push('cork');
  }
  uncork(): void {
    this.calls.push('uncork');
  }
}

describe('WriteBatch alone', () => {
  it('corks once per turn and uncorks when the turn ends; the next turn corks again', () => {
    const stream = new FakeStream();
    const flushes: (() => void)[] = [];
    const batch = new WriteBatch(stream, (flush) => flushes.push(flush));
    batch.hold();
    batch.hold();
    batch.hold();
    expect(stream.calls).toEqual(['cork']);
    expect(flushes).toHaveLength(1);
    expect(batch.holding).toBe(true);
    flushes[0]?.();
    expect(stream.calls).toEqual(['cork', 'uncork']);
    expect(batch.holding).toBe(false);
    batch.hold();
    expect(stream.calls).toEqual(['cork', 'uncork', 'cork']);
    expect(flushes).toHaveLength(2);
  });

  it('flushes by itself after the current turn (setImmediate) by default', async () => {
    const stream = new FakeStream();
    const batch = new WriteBatch(stream);
    batch.hold();
    await Promise.resolve();
    expect(stream.calls).toEqual(['cork']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(stream.calls).toEqual(['cork', 'uncork']);
  });
});

/** Counts the system-call-level writes of a socket (`_write` and `_writev`, the stream implementer's API). */
function countWrites(socket: Duplex): { count: number } {
  const counter = { count: 0 };
  const target = socket as Duplex & { _write: (...args: unknown[]) => void; _writev?: (...args: unknown[]) => void };
  const write = target._write.bind(target);
  target._write = (...args: unknown[]) => {
    counter.count += 1;
    write(...args);
  };
  if (target._writev) {
    const writev = target._writev.bind(target);
    target._writev = (...args: unknown[]) => {
      counter.count += 1;
      writev(...args);
    };
  }
  return counter;
}

describe('WriteBatch on a real upgrade', () => {
  let server: Server | undefined;
  let wss: WebSocketServer | undefined;
  afterEach(async () => {
    wss?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  /** Upgrades, sends five frames in the same turn, and reports the server socket's writes. */
  async function fiveFrames(batched: boolean): Promise<{ writes: number; received: string[] }> {
    const counted: { count: number }[] = [];
    wss = new WebSocketServer({ noServer: true });
    server = createServer();
    server.on('upgrade', (req, socket: Duplex, head) => {
      const counter = countWrites(socket);
      counted.push(counter);
      const batch = batched ? new WriteBatch(socket) : undefined;
      batch?.hold();
      wss?.handleUpgrade(req, socket, head, (ws) => {
        for (let i = 1; i <= 5; i += 1) {
          batch?.hold();
          ws.send(`frame ${i}`);
        }
      });
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const client = new WebSocket(`ws://127.0.0.1:${port}`);
    const received: string[] = [];
    await new Promise<void>((resolve, reject) => {
      client.on('message', (data) => {
        received.push(String(data));
        if (received.length === 5) resolve();
      });
      client.on('error', reject);
    });
    client.close();
    return { writes: counted[0]?.count ?? -1, received };
  }

  it('sends the 101 and five frames in one write, each frame whole and in order', async () => {
    const { writes, received } = await fiveFrames(true);
    expect(received).toEqual(['frame 1', 'frame 2', 'frame 3', 'frame 4', 'frame 5']);
    expect(writes).toBe(1);
  });

  it('(the same without a batch: one write per frame and one for the 101)', async () => {
    const { writes, received } = await fiveFrames(false);
    expect(received).toEqual(['frame 1', 'frame 2', 'frame 3', 'frame 4', 'frame 5']);
    expect(writes).toBe(6);
  });
});
