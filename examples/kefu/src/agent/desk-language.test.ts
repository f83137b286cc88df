import { describe, expect, it } from 'vitest';
import { DESK_LANGUAGE_KEY, initialDeskLanguage, rememberDeskLanguage } from './desk-language.js';

function store(initial: Record<string, string> = {}): Pick<Storage, 'getItem' | 'setItem'> & { data: Record<string, string> } {
  const data = { ...initial };
  return { data, getItem: (k) => data[k] ?? null, setItem: (k, v) => void (data[k] = v) };
}

describe('the desk language at start', () => {
  it('follows the browser: its first language the desk speaks (regions and case do not matter)', () => {
    expect(initialDeskLanguage(store(), ['en-US', 'zh-CN'])).toBe('en');
    expect(initialDeskLanguage(store(), ['xx', 'DE_de'])).toBe('de');
    expect(initialDeskLanguage(store(), ['zh-TW'])).toBe('zh-Hant');
  });

  it('keeps the default when the browser speaks nothing the desk does, or says nothing', () => {
    expect(initialDeskLanguage(store(), ['xx-YY'])).toBeUndefined();
    expect(initialDeskLanguage(store(), [])).toBeUndefined();
  });

  it("the agent's own pick wins over the browser, and is kept for the next start", () => {
    const s = store();
    rememberDeskLanguage(s, 'ja');
    expect(s.data[DESK_LANGUAGE_KEY]).toBe('ja');
    expect(initialDeskLanguage(s, ['en-US'])).toBe('ja');
    // a damaged pick counts as none
    expect(initialDeskLanguage(store({ [DESK_LANGUAGE_KEY]: '<b>' }), ['en'])).toBe('en');
  });

  it('an unavailable storage is no pick and keeps nothing, never an error', () => {
    const broken = {
      getItem: (): string | null => {
        throw new Error('SecurityError');
      },
      setItem: (): void => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(initialDeskLanguage(broken, ['fr-FR'])).toBe('fr');
    expect(() => rememberDeskLanguage(broken, 'fr')).not.toThrow();
    expect(initialDeskLanguage(undefined, ['ko'])).toBe('ko');
  });
});
