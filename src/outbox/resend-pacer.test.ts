import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage } from '../messages/types.js';
import { defaultTimers } from '../timers.js';
import { ACK_TIMEOUT_MS, RATE_PAUSE_MS, RESEND_WINDOW, ResendPacer } from './resend-pacer.js';

/** An outbox of texts and a socket that records what is written. */
function setup(count: number) {
  const pending: (ChatMessage & { fp: string })[] = Array.from({ length: count }, (_, i) => ({ type: 100, fp: `t${i + 1}`, dataContent: `${i + 1}` }));
  const socket = { open: true, written: [] as string[] };
  const pacer = new ResendPacer({
    pending: () => pending,
    isOpen: () => socket.open,
    write: (m) => socket.open && socket.written.push(m.fp as string) > 0,
    onResend: () => undefined,
    timers: defaultTimers,
  });
  /** The server echoes a message: it leaves the outbox. */
  const echo = (fp: string) => {
    pending.splice(
      pending.findIndex((m) => m.fp === fp),
      1,
    );
    pacer.settled(fp);
  };
  return { pending, socket, pacer, echo };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe(`after an open the backlog goes out in order, at most ${RESEND_WINDOW} waiting for their echo`, () => {
  it('sends the first window at once and one more per echo, never one twice', () => {
    const { socket, pacer, echo } = setup(20);
    pacer.opened();
    expect(socket.written).toEqual(['t1', 't2', 't3', 't4', 't5', 't6', 't7', 't8']);
    echo('t1');
    echo('t2');
    expect(socket.written.slice(8)).toEqual(['t9', 't10']);
    for (let i = 3; i <= 20; i++) echo(`t${i}`);
    expect(socket.written).toEqual(Array.from({ length: 20 }, (_, i) => `t${i + 1}`));
  });

  it('a text written while the backlog drains waits behind it', () => {
    const { pending, socket, pacer, echo } = setup(10);
    pacer.opened();
    const live = { type: 100, fp: 'live', dataContent: 'now' };
    pending.push(live);
    pacer.send(live);
    expect(socket.written).not.toContain('live');
    for (let i = 1; i <= 10; i++) echo(`t${i}`);
    expect(socket.written.at(-1)).toBe('live');
  });

  it('with nothing waiting a new text is written at once', () => {
    const { pending, socket, pacer } = setup(0);
    pacer.opened();
    const live = { type: 100, fp: 'live', dataContent: 'now' };
    pending.push(live);
    pacer.send(live);
    expect(socket.written).toEqual(['live']);
  });
});

describe('a text sent on a socket that dropped before its echo is sent again after the next open, never left sending', () => {
  it('the next open writes it again, with what was never written', () => {
    const { socket, pacer } = setup(10);
    pacer.opened();
    socket.open = false; // dropped: t1..t8 were written, none echoed
    socket.written.length = 0;
    socket.open = true;
    pacer.opened();
    expect(socket.written).toEqual(['t1', 't2', 't3', 't4', 't5', 't6', 't7', 't8']);
  });

  it(`an echo that does not come within ${ACK_TIMEOUT_MS} ms on an open socket: written again`, async () => {
    const { socket, pacer, echo } = setup(2);
    pacer.opened();
    echo('t1');
    await vi.advanceTimersByTimeAsync(ACK_TIMEOUT_MS - 1);
    expect(socket.written).toEqual(['t1', 't2']);
    await vi.advanceTimersByTimeAsync(1);
    expect(socket.written).toEqual(['t1', 't2', 't2']);
    echo('t2');
    await vi.advanceTimersByTimeAsync(ACK_TIMEOUT_MS * 3);
    expect(socket.written).toEqual(['t1', 't2', 't2']);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('a resent text refused too-frequent is kept and sent again after a pause, one at a time', () => {
  it('keeps the order and does not fail it', async () => {
    const { socket, pacer, echo } = setup(12);
    pacer.opened();
    for (let i = 1; i <= 4; i++) echo(`t${i}`); // t1..t12 now written
    expect(socket.written).toHaveLength(12);
    for (let i = 5; i <= 10; i++) echo(`t${i}`);
    expect(pacer.retryLater('t11')).toBe(true);
    expect(pacer.retryLater('t12')).toBe(true);
    socket.written.length = 0;
    await vi.advanceTimersByTimeAsync(RATE_PAUSE_MS - 1);
    expect(socket.written).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(socket.written).toEqual(['t11']); // one at a time from now on
    echo('t11');
    expect(socket.written).toEqual(['t11', 't12']);
  });

  it('a live text refused too-frequent is not the pacer’s (it fails as before)', () => {
    const { pending, pacer } = setup(0);
    pacer.opened();
    const live = { type: 100, fp: 'live', dataContent: 'now' };
    pending.push(live);
    pacer.send(live);
    expect(pacer.retryLater('live')).toBe(false);
  });

  it('dispose cancels the pause and the echo watch: no timer left', () => {
    const { pacer } = setup(3);
    pacer.opened();
    pacer.retryLater('t1');
    expect(vi.getTimerCount()).toBe(2);
    pacer.dispose();
    expect(vi.getTimerCount()).toBe(0);
  });
});
