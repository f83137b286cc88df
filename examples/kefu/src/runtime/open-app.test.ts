import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OpenAppHelperEnv } from '@kefu-im/sdk/embed';
import { installOpenAppHelpers, OPEN_APP_GLOBAL, watchAppOpened, type AppOpenWatchEnv, type OpenAppActions, type OpenAppHelpers } from './open-app.js';

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

describe('window.kefuOpenApp: there from the start, its actions in their own chunk', () => {
  const env = {} as OpenAppHelperEnv;
  const fakeActions = (): OpenAppActions & { calls: string[] } => {
    const calls: string[] = [];
    return {
      calls,
      openChat: (id) => (calls.push(`chat ${id}`), () => undefined),
      openGroup: (link, _env, variant) => (calls.push(`group ${link} ${variant ?? ''}`), () => undefined),
      openLink: (url) => (calls.push(`link ${url}`), () => undefined),
    };
  };
  const helpersOf = (win: object): OpenAppHelpers => Reflect.get(win, OPEN_APP_GLOBAL) as OpenAppHelpers;

  it('fetches the actions at once; once there, a helper runs them synchronously (inside the click that called it)', async () => {
    const win = {} as Window;
    const actions = fakeActions();
    const load = vi.fn(() => Promise.resolve(actions));
    const remove = installOpenAppHelpers(win, () => env, load);
    expect(load).toHaveBeenCalledTimes(1);
    await load.mock.results[0]?.value;
    helpersOf(win).chat('42');
    helpersOf(win).group('https://g.example/x', 'uat');
    expect(actions.calls).toEqual(['chat 42', 'group https://g.example/x uat']);
    expect(load).toHaveBeenCalledTimes(1);
    remove();
    expect(Reflect.get(win, OPEN_APP_GLOBAL)).toBeUndefined();
  });

  it('a call that comes before the actions runs when they arrive', async () => {
    const win = {} as Window;
    const actions = fakeActions();
    let deliver: (loaded: OpenAppActions) => void = () => undefined;
    installOpenAppHelpers(win, () => env, () => new Promise((resolve) => (deliver = resolve)));
    helpersOf(win).link('https://example.com/a');
    expect(actions.calls).toEqual([]);
    deliver(actions);
    await vi.waitFor(() => expect(actions.calls).toEqual(['link https://example.com/a']));
  });

  it('a failed fetch is tried again by the next call', async () => {
    const win = {} as Window;
    const actions = fakeActions();
    const load = vi.fn<() => Promise<OpenAppActions>>().mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module')).mockResolvedValue(actions);
    installOpenAppHelpers(win, () => env, load);
    expect(load).toHaveBeenCalledTimes(1);
    await (load.mock.results[0]?.value as Promise<unknown>).catch(() => undefined);
    helpersOf(win).chat('7');
    await vi.waitFor(() => expect(actions.calls).toEqual(['chat 7']));
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('the real chunk holds the SDK actions', async () => {
    const { loadOpenAppActions } = await import('./open-app.js');
    const loaded = await loadOpenAppActions();
    expect(typeof loaded.openChat).toBe('function');
    expect(typeof loaded.openGroup).toBe('function');
    expect(typeof loaded.openLink).toBe('function');
  });
});
