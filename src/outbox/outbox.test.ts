import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../messages/types.js';
import { Outbox } from './outbox.js';

const msg = (fp: string, dataContent = fp): ChatMessage & { fp: string } => ({ type: 100, from: 'u1', fp, dataContent });

describe('"A message not yet acknowledged is resent after a reconnect": pending() keeps the sending order', () => {
  it('lists pending messages in insertion order', () => {
    const outbox = new Outbox();
    outbox.add(msg('a'));
    outbox.add(msg('b'));
    outbox.add(msg('c'));
    expect(outbox.pending().map((m) => m.fp)).toEqual(['a', 'b', 'c']);
    expect(outbox.size).toBe(3);
  });

  it('re-adding an fp replaces the message but keeps its place', () => {
    const outbox = new Outbox();
    outbox.add(msg('a'));
    outbox.add(msg('b'));
    outbox.add(msg('a', 'edited'));
    expect(outbox.pending().map((m) => [m.fp, m.dataContent])).toEqual([
      ['a', 'edited'],
      ['b', 'b'],
    ]);
  });

  it('pending() is a copy', () => {
    const outbox = new Outbox();
    outbox.add(msg('a'));
    outbox.pending().pop();
    expect(outbox.size).toBe(1);
  });
});

describe('"The server acknowledges a message it accepted by sending it back to the sender, same fp"', () => {
  it('ack(fp) removes and returns the pending message', () => {
    const outbox = new Outbox();
    const a = msg('a');
    outbox.add(a);
    outbox.add(msg('b'));
    expect(outbox.ack('a')).toBe(a);
    expect(outbox.has('a')).toBe(false);
    expect(outbox.pending().map((m) => m.fp)).toEqual(['b']);
  });

  it('ack of an unknown fp (someone else\'s message, a second echo) returns undefined', () => {
    const outbox = new Outbox();
    outbox.add(msg('a'));
    expect(outbox.ack('zzz')).toBeUndefined();
    outbox.ack('a');
    expect(outbox.ack('a')).toBeUndefined();
  });
});

describe('"A refusal (type 500) names the refused fp": fail(fp) stops resending it', () => {
  it('fail(fp) removes the message', () => {
    const outbox = new Outbox();
    outbox.add(msg('a'));
    outbox.add(msg('b'));
    expect(outbox.fail('b')?.fp).toBe('b');
    expect(outbox.has('b')).toBe(false);
    expect(outbox.has('a')).toBe(true);
    expect(outbox.fail('b')).toBeUndefined();
  });

  it('clear() forgets everything', () => {
    const outbox = new Outbox();
    outbox.add(msg('a'));
    outbox.clear();
    expect(outbox.size).toBe(0);
    expect(outbox.pending()).toEqual([]);
  });
});

describe('"Bad input always gets a clear error": a message without fp', () => {
  it.each([[undefined], [''], [42]])('add() rejects fp %j', (fp) => {
    const outbox = new Outbox();
    expect(() => outbox.add({ type: 100, fp } as unknown as ChatMessage & { fp: string })).toThrow('Outbox.add: the message needs a non-empty string fp.');
    expect(outbox.size).toBe(0);
  });
});
