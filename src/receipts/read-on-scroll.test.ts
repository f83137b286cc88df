// @vitest-environment happy-dom
import { afterEach, beforeAll, describe, expect, expectTypeOf, it, vi } from 'vitest';
import type { ChatMessage } from '../messages/types.js';
import { loadObserver, observeReadOnScroll, shouldMarkReadOnScroll } from './read-on-scroll.js';
import type { IntersectionEntryLike, IntersectionObserverConstructorLike, IntersectionObserverLike } from './read-on-scroll.js';

const SELF = 'visitor-1';

/** A controllable IntersectionObserver: `scroll(el, true)` reports an intersection. */
class FakeObserver implements IntersectionObserverLike {
  static instances: FakeObserver[] = [];
  readonly observed = new Set<Element>();
  disconnected = false;
  constructor(
    private readonly callback: (entries: IntersectionEntryLike[], observer: IntersectionObserverLike) => void,
    readonly init?: { threshold?: number | number[]; root?: Element | Document | null; rootMargin?: string },
  ) {
    FakeObserver.instances.push(this);
  }
  observe(target: Element): void {
    this.observed.add(target);
  }
  unobserve(target: Element): void {
    this.observed.delete(target);
  }
  disconnect(): void {
    this.observed.clear();
    this.disconnected = true;
  }
  static scroll(target: Element, isIntersecting: boolean): void {
    for (const o of FakeObserver.instances) {
      if (o.observed.has(target)) o.callback([{ target, isIntersecting }], o);
    }
  }
}

function msg(overrides: Partial<ChatMessage> = {}): ChatMessage {
  return { type: 100, from: 'agent:anna', to: SELF, fp: 'fp-1', isRead: 0, dataContent: 'hi', ...overrides };
}

afterEach(() => {
  FakeObserver.instances = [];
  vi.unstubAllGlobals();
});

describe('the observing code loads on first use', () => {
  it('a first call watches the element once the code has loaded', async () => {
    vi.resetModules(); // a fresh module: nothing has loaded the observing half yet
    const fresh = await import('./read-on-scroll.js');
    const el = document.createElement('div');
    const onRead = vi.fn();
    fresh.observeReadOnScroll(el, msg(), { selfId: SELF, onRead, IntersectionObserver: FakeObserver });
    expect(FakeObserver.instances).toHaveLength(0);
    await vi.waitFor(() => expect(FakeObserver.instances[0]?.observed.has(el)).toBe(true));
    FakeObserver.scroll(el, true);
    expect(onRead).toHaveBeenCalledTimes(1);
  });

  it('a disposer called before the load leaves nothing observed', async () => {
    vi.resetModules();
    const fresh = await import('./read-on-scroll.js');
    const dispose = fresh.observeReadOnScroll(document.createElement('div'), msg(), { selfId: SELF, onRead: vi.fn(), IntersectionObserver: FakeObserver });
    dispose();
    await fresh.loadObserver();
    await Promise.resolve();
    expect(FakeObserver.instances).toHaveLength(0);
  });

  it('a failed load goes to onError, and the next call tries again', async () => {
    vi.resetModules();
    vi.doMock('./read-on-scroll-observer.js', () => {
      throw new Error('chunk lost');
    });
    const fresh = await import('./read-on-scroll.js');
    const onError = vi.fn();
    fresh.observeReadOnScroll(document.createElement('div'), msg(), { selfId: SELF, onRead: vi.fn(), onError, IntersectionObserver: FakeObserver });
    await vi.waitFor(() => expect(onError).toHaveBeenCalledTimes(1));
    vi.doUnmock('./read-on-scroll-observer.js');
    const el = document.createElement('div');
    fresh.observeReadOnScroll(el, msg(), { selfId: SELF, onRead: vi.fn(), IntersectionObserver: FakeObserver });
    await vi.waitFor(() => expect(FakeObserver.instances.some((o) => o.observed.has(el))).toBe(true));
  });
});

// The rules below run with the observing code loaded (synchronous from then on).
beforeAll(async () => {
  await loadObserver(); // (a function returned from beforeAll would be taken for its teardown)
});

describe('read on scroll fires only if the message is not yet read, not from a robot and not a group message', () => {
  it('an unread message from someone else qualifies', () => {
    expect(shouldMarkReadOnScroll(msg(), SELF)).toBe(true);
    expect(shouldMarkReadOnScroll(msg({ isRead: undefined }), SELF)).toBe(true);
  });
  it('a read message does not', () => {
    expect(shouldMarkReadOnScroll(msg({ isRead: 1 }), SELF)).toBe(false);
  });
  it('a robot message does not', () => {
    expect(shouldMarkReadOnScroll(msg({ robot: 1 }), SELF)).toBe(false);
    expect(shouldMarkReadOnScroll(msg({ robot: true }), SELF)).toBe(false);
  });
  it('a message sent by the current user does not', () => {
    expect(shouldMarkReadOnScroll(msg({ from: SELF, to: 'agent:anna' }), SELF)).toBe(false);
  });
  it('garbage does not, and never throws', () => {
    for (const bad of [null, undefined, 3, 'x', {}]) expect(shouldMarkReadOnScroll(bad as unknown as ChatMessage, SELF)).toBe(false);
  });
});

describe('for group messages, only if the current user is not yet in the read list', () => {
  const group = (list: ChatMessage['imGroupMsgReadList'], extra: Partial<ChatMessage> = {}): ChatMessage =>
    msg({ isGroup: 1, to: 'group-1', imGroupMsgReadList: list, ...extra });
  it('qualifies while the user is missing from imGroupMsgReadList', () => {
    expect(shouldMarkReadOnScroll(group([{ clientId: 'someone' }]), SELF)).toBe(true);
    expect(shouldMarkReadOnScroll(group(undefined), SELF)).toBe(true);
  });
  it('does not once the user is in the list', () => {
    expect(shouldMarkReadOnScroll(group([{ clientId: 'someone' }, { clientId: SELF }]), SELF)).toBe(false);
  });
  it('does not for a robot group message or without a user id', () => {
    expect(shouldMarkReadOnScroll(group([], { robot: 1 }), SELF)).toBe(false);
    expect(shouldMarkReadOnScroll(group([]), undefined)).toBe(false);
  });
});

describe('a received message becomes read when it scrolls into view; observation stops after firing', () => {
  it('calls onRead once when the element intersects, then unobserves and disconnects', () => {
    const el = document.createElement('div');
    const onRead = vi.fn();
    const m = msg();
    observeReadOnScroll(el, m, { selfId: SELF, onRead, IntersectionObserver: FakeObserver });
    const observer = FakeObserver.instances[0];
    expect(observer?.observed.has(el)).toBe(true);
    FakeObserver.scroll(el, false);
    expect(onRead).not.toHaveBeenCalled();
    FakeObserver.scroll(el, true);
    expect(onRead).toHaveBeenCalledWith(m);
    expect(observer?.observed.size).toBe(0);
    expect(observer?.disconnected).toBe(true);
    FakeObserver.scroll(el, true);
    expect(onRead).toHaveBeenCalledTimes(1);
  });
  it('does not observe a message that does not qualify', () => {
    const onRead = vi.fn();
    observeReadOnScroll(document.createElement('div'), msg({ isRead: 1 }), { selfId: SELF, onRead, IntersectionObserver: FakeObserver });
    expect(FakeObserver.instances).toHaveLength(0);
  });
  it('does not fire if the message became read before it scrolled into view, but still stops', () => {
    const el = document.createElement('div');
    const onRead = vi.fn();
    const m = msg();
    observeReadOnScroll(el, m, { selfId: SELF, onRead, IntersectionObserver: FakeObserver });
    m.isRead = 1;
    FakeObserver.scroll(el, true);
    expect(onRead).not.toHaveBeenCalled();
    expect(FakeObserver.instances[0]?.disconnected).toBe(true);
  });
  it('passes threshold (default 0.1), root and rootMargin to the observer', () => {
    const root = document.createElement('section');
    observeReadOnScroll(document.createElement('div'), msg(), { selfId: SELF, onRead: () => undefined, IntersectionObserver: FakeObserver });
    observeReadOnScroll(document.createElement('div'), msg(), {
      selfId: SELF,
      onRead: () => undefined,
      IntersectionObserver: FakeObserver,
      threshold: 0.6,
      root,
      rootMargin: '10px',
    });
    expect(FakeObserver.instances[0]?.init).toEqual({ threshold: 0.1 });
    expect(FakeObserver.instances[1]?.init).toEqual({ threshold: 0.6, root, rootMargin: '10px' });
  });
  it('a throwing onRead is reported to onError and observation still stops', () => {
    const el = document.createElement('div');
    const onError = vi.fn();
    observeReadOnScroll(el, msg(), {
      selfId: SELF,
      onRead: () => {
        throw new Error('boom');
      },
      onError,
      IntersectionObserver: FakeObserver,
    });
    expect(() => FakeObserver.scroll(el, true)).not.toThrow();
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: 'boom' }));
    expect(FakeObserver.instances[0]?.disconnected).toBe(true);
  });
});

describe('the disposer stops observing', () => {
  it('disconnects before firing and is safe to call twice', () => {
    const el = document.createElement('div');
    const onRead = vi.fn();
    const dispose = observeReadOnScroll(el, msg(), { selfId: SELF, onRead, IntersectionObserver: FakeObserver });
    dispose();
    dispose();
    expect(FakeObserver.instances[0]?.disconnected).toBe(true);
    FakeObserver.scroll(el, true);
    expect(onRead).not.toHaveBeenCalled();
  });
});

describe('IntersectionObserver is looked up on globalThis at call time; without one nothing happens', () => {
  it('uses globalThis.IntersectionObserver when none is passed', () => {
    vi.stubGlobal('IntersectionObserver', FakeObserver);
    const el = document.createElement('div');
    const onRead = vi.fn();
    observeReadOnScroll(el, msg(), { selfId: SELF, onRead });
    FakeObserver.scroll(el, true);
    expect(onRead).toHaveBeenCalledTimes(1);
  });
  it('returns a no-op disposer when there is no IntersectionObserver', () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    const onRead = vi.fn();
    const dispose = observeReadOnScroll(document.createElement('div'), msg(), { selfId: SELF, onRead });
    expect(() => dispose()).not.toThrow();
    expect(onRead).not.toHaveBeenCalled();
  });
});

describe('bad input gets a clear error', () => {
  it('rejects a missing onRead and an out-of-range threshold', () => {
    const el = document.createElement('div');
    expect(() => observeReadOnScroll(el, msg(), { selfId: SELF } as never)).toThrow(/onRead/);
    expect(() =>
      observeReadOnScroll(el, msg(), { selfId: SELF, onRead: () => undefined, IntersectionObserver: FakeObserver, threshold: 2 }),
    ).toThrow(/threshold/);
  });
});

describe("the browser's own IntersectionObserver fits the option (checked by tsc)", () => {
  it('typeof IntersectionObserver extends IntersectionObserverConstructorLike', () => {
    expectTypeOf<typeof IntersectionObserver>().toExtend<IntersectionObserverConstructorLike>();
    expectTypeOf<typeof FakeObserver>().toExtend<IntersectionObserverConstructorLike>();
  });
});
