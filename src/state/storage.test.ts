import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StorageLike } from '../options.js';
import { memoryStorage, resolveStorage, safeStorage } from './storage.js';

afterEach(() => {
  vi.unstubAllGlobals();
});

/** A storage whose writes throw, like Safari's private mode. */
const throwingOnWrite = (): StorageLike => ({
  getItem: () => null,
  setItem: () => {
    throw new Error('QuotaExceededError');
  },
  removeItem: () => undefined,
});

describe('memoryStorage', () => {
  it('stores, returns and removes strings', () => {
    const s = memoryStorage();
    expect(s.getItem('k')).toBeNull();
    s.setItem('k', 'v');
    expect(s.getItem('k')).toBe('v');
    s.removeItem('k');
    expect(s.getItem('k')).toBeNull();
  });

  it('keeps separate instances apart', () => {
    const a = memoryStorage();
    a.setItem('k', '1');
    expect(memoryStorage().getItem('k')).toBeNull();
  });
});

describe('resolveStorage: injected, else usable localStorage (reached lazily, inside try/catch), else memory', () => {
  it('uses the injected storage', () => {
    const injected = memoryStorage();
    expect(resolveStorage(injected)).toBe(injected);
  });

  it('uses localStorage when it accepts writes', () => {
    const ls = memoryStorage();
    vi.stubGlobal('localStorage', ls);
    expect(resolveStorage()).toBe(ls);
  });

  it('falls back to memory when localStorage throws on write (Safari private mode)', () => {
    vi.stubGlobal('localStorage', throwingOnWrite());
    const s = resolveStorage();
    s.setItem('k', 'v');
    expect(s.getItem('k')).toBe('v');
  });

  it('falls back to memory when reading localStorage throws (sandboxed frame)', () => {
    Object.defineProperty(globalThis, 'localStorage', {
      configurable: true,
      get() {
        throw new Error('SecurityError');
      },
    });
    try {
      expect(resolveStorage().getItem('x')).toBeNull();
    } finally {
      delete (globalThis as { localStorage?: unknown }).localStorage;
    }
  });

  it('falls back to memory without localStorage (SSR, Node)', () => {
    vi.stubGlobal('localStorage', undefined);
    const s = resolveStorage();
    s.setItem('a', 'b');
    expect(s.getItem('a')).toBe('b');
  });

  it('refuses an injected object that is not a storage', () => {
    expect(() => resolveStorage({} as never)).toThrow(/getItem, setItem and removeItem/);
  });
});

describe('safeStorage: storage failures never throw', () => {
  it('drops failed writes and reports them', () => {
    const onError = vi.fn();
    const s = safeStorage(throwingOnWrite(), onError);
    expect(() => s.setItem('k', 'v')).not.toThrow();
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: 'QuotaExceededError' }));
  });

  it('gives null for failed reads', () => {
    const s = safeStorage({
      ...memoryStorage(),
      getItem: () => {
        throw new Error('denied');
      },
    });
    expect(s.getItem('k')).toBeNull();
  });
});
