import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { watchAppOpened, type AppOpenWatchEnv } from './open-app.js';

function fakePage(): AppOpenWatchEnv & { fire(target: 'window' | 'document', type: string): void; listeners(): number } {
  const win = new EventTarget();
  const doc = Object.assign(new EventTarget(), { hidden: false });
  let count = 0;
  const track = <T extends EventTarget>(t: T): T => {
    const add = t.addEventListener.bind(t);
    const remove = t.removeEventListener.bind(t);
    t.addEventListener = ((type: string, fn: EventListener) => {
      count += 1;
      add(type, fn);
    }) as T['addEventListener'];
    t.removeEventListener = ((type: string, fn: EventListener) => {
      count -= 1;
      remove(type, fn);
    }) as T['removeEventListener'];
    return t;
  };
  const env = {
    window: track(win),
    document: track(doc),
    timers: { setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms), clearTimeout: (id: unknown) => clearTimeout(id as ReturnType<typeof setTimeout>) },
    delay: 3_000,
  };
  return Object.assign(env as unknown as AppOpenWatchEnv, {
    fire: (target: 'window' | 'document', type: string) => (target === 'window' ? win : doc).dispatchEvent(new Event(type)),
    listeners: () => count,
    setHidden: (h: boolean) => (doc.hidden = h),
  });
}

describe('open-in-app says when nothing opened (after the 3 s fallback rule)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('tells once when the page stays visible and focused for 3 s', () => {
    const page = fakePage();
    const told = vi.fn();
    watchAppOpened(page, told);
    vi.advanceTimersByTime(2_999);
    expect(told).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(told).toHaveBeenCalledTimes(1);
    expect(page.listeners()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('says nothing when the app took over (blur, pagehide or a hidden page)', () => {
    for (const [target, type] of [['window', 'blur'], ['window', 'pagehide']] as const) {
      const page = fakePage();
      const told = vi.fn();
      watchAppOpened(page, told);
      page.fire(target, type);
      vi.advanceTimersByTime(5_000);
      expect(told).not.toHaveBeenCalled();
      expect(page.listeners()).toBe(0);
    }
    const page = fakePage();
    const told = vi.fn();
    watchAppOpened(page, told);
    (page as unknown as { setHidden(h: boolean): void }).setHidden(true);
    page.fire('document', 'visibilitychange');
    vi.advanceTimersByTime(5_000);
    expect(told).not.toHaveBeenCalled();
  });

  it('stops watching when disposed', () => {
    const page = fakePage();
    const told = vi.fn();
    const stop = watchAppOpened(page, told);
    stop();
    vi.advanceTimersByTime(5_000);
    expect(told).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });
});
