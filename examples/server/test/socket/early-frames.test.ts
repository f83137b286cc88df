/**
 * The frames held before admission, alone: a fake socket; no server.
 */
import { describe, expect, it } from 'vitest';
import { TRY_AGAIN_LATER_CLOSE } from '../../src/socket/close-codes.js';
import { EarlyFrames, EARLY_LIMITS, type EarlySocket } from '../../src/socket/early-frames.js';
import type { RawFrame } from '../../src/socket/connection.js';

class FakeSocket implements EarlySocket {
  pauses = 0;
  readonly closes: [number, string][] = [];
  pause(): void {
    this.pauses += 1;
  }
  close(code: number, reason: string): void {
    this.closes.push([code, reason]);
  }
}

const limits = { pauseFrames: 4, pauseBytes: 100, maxFrames: 8, maxBytes: 400 };
const frame = (i: number, size = 10): Buffer => Buffer.from(String(i).padEnd(size, '.'));
const texts = (frames: RawFrame[]): string[] => frames.map((f) => (Buffer.isBuffer(f) ? f.toString() : ''));

describe('early frames: none is dropped silently', () => {
  it('hands every held frame over, in arrival order, with its binary flag', () => {
    const socket = new FakeSocket();
    const early = new EarlyFrames(socket, limits);
    early.hold(frame(1), false);
    early.hold(frame(2), true);
    const got: [RawFrame, boolean][] = [];
    early.handOver((data, isBinary) => got.push([data, isBinary]));
    expect(got.map(([f, b]) => [texts([f])[0], b])).toEqual([
      [frame(1).toString(), false],
      [frame(2).toString(), true],
    ]);
    expect(socket.pauses).toBe(0);
    expect(socket.closes).toEqual([]);
  });

  it('pauses the socket at the frame threshold and keeps what still arrives', () => {
    const socket = new FakeSocket();
    const early = new EarlyFrames(socket, limits);
    for (let i = 0; i < 3; i++) early.hold(frame(i), false);
    expect(socket.pauses).toBe(0);
    early.hold(frame(3), false);
    expect(socket.pauses).toBeGreaterThan(0);
    for (let i = 4; i < 8; i++) early.hold(frame(i), false);
    expect(early.size).toBe(8);
    const got: RawFrame[] = [];
    early.handOver((data) => got.push(data));
    expect(texts(got)).toEqual(Array.from({ length: 8 }, (_, i) => frame(i).toString()));
    expect(socket.closes).toEqual([]);
  });

  it('pauses the socket at the byte threshold', () => {
    const socket = new FakeSocket();
    const early = new EarlyFrames(socket, limits);
    early.hold(frame(0, 60), false);
    expect(socket.pauses).toBe(0);
    early.hold(frame(1, 60), false);
    expect(socket.pauses).toBe(1);
  });

  it('past the hard bound closes with 1013 (the client reconnects and resends) and holds nothing more', () => {
    for (const [count, size] of [
      [9, 10],
      [3, 150],
    ] as const) {
      const socket = new FakeSocket();
      const early = new EarlyFrames(socket, limits);
      for (let i = 0; i < count; i++) early.hold(frame(i, size), false);
      expect(socket.closes).toEqual([[TRY_AGAIN_LATER_CLOSE, 'too many frames before admission']]);
      early.hold(frame(99), false);
      const got: RawFrame[] = [];
      early.handOver((data) => got.push(data));
      expect(got).toEqual([]);
    }
  });

  it('holds nothing after a hand-over or a discard', () => {
    const socket = new FakeSocket();
    const early = new EarlyFrames(socket, limits);
    early.discard();
    early.hold(frame(1), false);
    expect(early.size).toBe(0);
  });

  it('the limits in force: pause well before the hard bound, which is far above a resent outbox', () => {
    expect(EARLY_LIMITS.pauseFrames).toBeLessThan(EARLY_LIMITS.maxFrames / 4);
    expect(EARLY_LIMITS.pauseBytes).toBeLessThan(EARLY_LIMITS.maxBytes / 4);
  });
});
