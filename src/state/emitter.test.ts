import { EventEmitter } from 'eventemitter3';
import { describe, expect, it } from 'vitest';
import { Emitter } from './emitter.js';

type Events = { a: (n: number) => void; b: () => void };

/** Runs one scenario against our emitter and eventemitter3, and gives both logs. */
function both(scenario: (e: InstanceType<typeof EventEmitter<Events>>, log: unknown[]) => void): [unknown[], unknown[]] {
  const ours: unknown[] = [];
  const theirs: unknown[] = [];
  scenario(new Emitter<Events>(), ours);
  scenario(new EventEmitter<Events>(), theirs);
  return [ours, theirs];
}

describe('Emitter behaves as eventemitter3 (the API the client, connection and uploader expose)', () => {
  it('calls listeners in order with the arguments, and emit says whether any listened', () => {
    const [ours, theirs] = both((e, log) => {
      log.push(e.emit('a', 0));
      e.on('a', (n) => log.push(['first', n]));
      e.addListener('a', (n) => log.push(['second', n]));
      log.push(e.emit('a', 1), e.listenerCount('a'), e.listenerCount('b'), e.eventNames());
    });
    expect(ours).toEqual([false, ['first', 1], ['second', 1], true, 2, 0, ['a']]);
    expect(ours).toEqual(theirs);
  });

  it('once runs one time; off removes one listener, every listener of an event, or by context', () => {
    const [ours, theirs] = both((e, log) => {
      const one = (n: number): number => log.push(['one', n]);
      const ctx = { name: 'ctx' };
      e.once('a', (n) => log.push(['once', n]));
      e.on('a', one);
      e.on('a', one, ctx);
      e.emit('a', 1);
      e.emit('a', 2);
      e.off('a', one, ctx);
      e.emit('a', 3);
      e.off('a', one);
      log.push(e.emit('a', 4), e.listeners('a').length);
      e.on('b', () => log.push('b'));
      e.on('b', () => log.push('b2'));
      e.off('b');
      log.push(e.emit('b'));
    });
    expect(ours).toEqual(theirs);
  });

  it('gives listeners the context as this (the emitter by default)', () => {
    const ctx = { name: 'ctx' };
    const e = new Emitter<Events>();
    const seen: unknown[] = [];
    e.on('b', function (this: unknown) {
      seen.push(this);
    });
    e.on(
      'b',
      function (this: unknown) {
        seen.push(this);
      },
      ctx,
    );
    e.emit('b');
    expect(seen).toEqual([e, ctx]);
  });

  it('an emit goes on with the listeners it began with, when a listener removes another or adds one', () => {
    const [ours, theirs] = both((e, log) => {
      const second = (): number => log.push('second');
      e.on('b', () => {
        log.push('first');
        e.off('b', second);
        e.on('b', () => log.push('added'));
      });
      e.on('b', second);
      e.emit('b');
      e.emit('b');
    });
    expect(ours).toEqual(theirs);
  });

  it('removeAllListeners clears one event or all; a listener that is not a function is refused', () => {
    const e = new Emitter<Events>();
    e.on('a', () => undefined).on('b', () => undefined);
    e.removeAllListeners('a');
    expect(e.eventNames()).toEqual(['b']);
    e.removeAllListeners();
    expect(e.eventNames()).toEqual([]);
    expect(() => e.on('a', 'x' as never)).toThrow(TypeError);
  });
});
