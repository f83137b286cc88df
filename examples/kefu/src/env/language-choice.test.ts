import { describe, expect, it } from 'vitest';
import { LANGUAGE_CHOSEN_KEY, languageChosen, rememberLanguageChosen } from './language-choice.js';

function memory(): Storage {
  const map = new Map<string, string>();
  return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v) } as Storage;
}

describe('the language switcher is remembered (the entry link no longer overrides a pick)', () => {
  it('is false until the visitor picks, then true', () => {
    const storage = memory();
    expect(languageChosen(storage)).toBe(false);
    rememberLanguageChosen(storage);
    expect(storage.getItem(LANGUAGE_CHOSEN_KEY)).toBe('1');
    expect(languageChosen(storage)).toBe(true);
  });

  it('survives storage that throws', () => {
    const broken = { getItem: () => { throw new Error('denied'); }, setItem: () => { throw new Error('denied'); } } as unknown as Storage;
    expect(() => rememberLanguageChosen(broken)).not.toThrow();
    expect(languageChosen(broken)).toBe(false);
  });
});
