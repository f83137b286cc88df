import { describe, expect, it, vi } from 'vitest';
import { I18n, interpolate, loadCatalogue } from './i18n.js';
import type { Catalogue, Language } from './languages.js';
import { zh } from './locales/zh.js';
import { zhNotices } from './locales/zh-notices.js';

/** A loader whose promises the test settles by hand. */
function manualLoader() {
  const pending = new Map<Language, { resolve: (c: Catalogue) => void; reject: (e: Error) => void }>();
  const loader = vi.fn(
    (lang: Language) =>
      new Promise<Catalogue>((resolve, reject) => {
        pending.set(lang, { resolve, reject });
      }),
  );
  return { loader, pending };
}

const catalogue = (overrides: Partial<Record<keyof typeof zh, string>>): Catalogue => ({ ...zh, ...overrides }) as Catalogue;

describe('zh is the key language and the fallback; only the SDK\'s own notices are bundled', () => {
  it('starts in zh and gives the notices the SDK emits in zh without loading anything', () => {
    const { loader } = manualLoader();
    const i18n = new I18n(undefined, { loader });
    expect(i18n.language).toBe('zh');
    expect(i18n.ready).toBe(false);
    for (const key of Object.keys(zhNotices) as (keyof typeof zhNotices)[]) expect(i18n.t(key)).toBe(zh[key]);
    expect(i18n.t('sendFailed')).toBe('发送失败');
    expect(loader).not.toHaveBeenCalled();
  });

  it('answers an interface text with its key until the zh catalogue has loaded (a lazy chunk)', async () => {
    const i18n = new I18n(undefined, { loader: loadCatalogue });
    expect(i18n.t('loadMore')).toBe('loadMore');
    await i18n.setLanguage('zh');
    expect(i18n.ready).toBe(true);
    expect(i18n.t('loadMore')).toBe('加载更多');
  });

  it('starts with the catalogues loadCatalogue has loaded in this page (default loader only)', async () => {
    await loadCatalogue('de');
    const later = new I18n('de');
    expect(later.ready).toBe(true);
    expect(later.t('send')).toBe((await loadCatalogue('de')).send);
    expect(new I18n('de', { loader: () => new Promise(() => {}) }).ready).toBe(false);
  });

  it('falls back to zh for a text the catalogue lacks', async () => {
    const partial = { ...zh, sendFailed: 'Send failed' } as Record<string, string>;
    delete partial.linkBroken;
    const i18n = new I18n('zh', { loader: async (lang) => (lang === 'zh' ? zh : (partial as Catalogue)) });
    await i18n.setLanguage('zh');
    await i18n.setLanguage('en');
    expect(i18n.t('sendFailed')).toBe('Send failed');
    expect(i18n.t('linkBroken')).toBe('链接已失效');
  });

  it('answers in zh until the initial language is loaded', async () => {
    const i18n = new I18n('en-US');
    expect(i18n.language).toBe('en');
    expect(i18n.ready).toBe(false);
    expect(i18n.t('sendFailed')).toBe('发送失败');
    await i18n.setLanguage('en');
    expect(i18n.ready).toBe(true);
    expect(i18n.t('sendFailed')).toBe('Send failed');
  });

  it('gives back an unknown key instead of throwing', () => {
    expect(new I18n().t('nope' as never)).toBe('nope');
  });
});

describe('setLanguage loads the catalogue lazily', () => {
  it("loads 'en' with its dynamic import", async () => {
    const i18n = new I18n();
    await expect(i18n.setLanguage('en')).resolves.toBe('en');
    expect(i18n.t('blankMessage')).toBe('Cannot send blank message');
  });

  it('falls back to zh for unknown languages and "none"', async () => {
    const i18n = new I18n('en', { loader: async () => catalogue({}) });
    await expect(i18n.setLanguage('xx')).resolves.toBe('zh');
    await expect(i18n.setLanguage('no')).resolves.toBe('zh');
  });

  it('loads each catalogue once', async () => {
    const loader = vi.fn(async (_language: Language) => catalogue({ send: 'Send' }));
    const i18n = new I18n(undefined, { loader });
    await i18n.setLanguage('en');
    await i18n.setLanguage('zh');
    await i18n.setLanguage('en-GB');
    await i18n.setLanguage('zh');
    expect(loader.mock.calls.map(([lang]) => lang)).toEqual(['en', 'zh']);
  });

  it('lets the last of overlapping calls win', async () => {
    const { loader, pending } = manualLoader();
    const i18n = new I18n(undefined, { loader });
    const first = i18n.setLanguage('en');
    const second = i18n.setLanguage('fr');
    pending.get('fr')?.resolve(catalogue({ send: 'Envoyer' }));
    await expect(second).resolves.toBe('fr');
    pending.get('en')?.resolve(catalogue({ send: 'Send' }));
    await expect(first).resolves.toBe('fr');
    expect(i18n.language).toBe('fr');
    expect(i18n.t('send')).toBe('Envoyer');
  });

  it('rejects with a clear error when a catalogue cannot be loaded, keeping the language', async () => {
    const i18n = new I18n(undefined, { loader: () => Promise.reject(new Error('chunk failed')) });
    await expect(i18n.setLanguage('de')).rejects.toThrow('Could not load the "de" interface texts');
    expect(i18n.language).toBe('zh');
  });
});

describe('t interpolates {param} placeholders', () => {
  it('fills parameters', async () => {
    const i18n = new I18n();
    await i18n.setLanguage('zh');
    expect(i18n.t('queuePosition', { position: 3 })).toBe('您当前排在第 3 位');
    expect(i18n.t('agentJoined', { name: 'Ann' })).toBe('客服 Ann 为您服务');
  });

  it('leaves placeholders without a parameter, and ignores inherited properties', () => {
    expect(interpolate('{a}-{b}-{toString}', { a: 1 })).toBe('1-{b}-{toString}');
    expect(interpolate('{a}', undefined)).toBe('{a}');
  });
});

describe('has: known text keys', () => {
  it('knows the zh keys only', async () => {
    const i18n = new I18n();
    expect(i18n.has('sendFailed')).toBe(true);
    await i18n.setLanguage('zh');
    expect(i18n.has('loadMore')).toBe(true);
    expect(i18n.has('toString')).toBe(false);
    expect(i18n.has('nope')).toBe(false);
  });

  it('knows the notice keys before any catalogue has loaded', () => {
    const i18n = new I18n('en', { loader: () => new Promise(() => {}) });
    expect(i18n.has('networkError')).toBe(true);
    expect(i18n.has('toString')).toBe(false);
  });
});

describe('subscribe/getSnapshot for React', () => {
  it('notifies and changes the snapshot when the language or its texts change, not otherwise', async () => {
    const loader = vi.fn(async () => catalogue({ send: 'Send' }));
    const i18n = new I18n(undefined, { loader: async (lang: Language) => (lang === 'zh' ? zh : loader()) });
    await i18n.setLanguage('zh');
    const listener = vi.fn();
    i18n.subscribe(listener);
    const before = i18n.getSnapshot();
    expect(i18n.getSnapshot()).toBe(before);
    await i18n.setLanguage('zh');
    expect(listener).not.toHaveBeenCalled();
    await i18n.setLanguage('en');
    expect(listener).toHaveBeenCalledTimes(1);
    const after = i18n.getSnapshot();
    expect(after).not.toBe(before);
    expect(after).toMatchObject({ language: 'en', ready: true });
    expect(after.t('send')).toBe('Send');
    expect(before.t('send')).toBe('发送');
  });

  it('notifies when the initial language\'s texts arrive', async () => {
    const i18n = new I18n('ja', { loader: async () => catalogue({ send: '送信' }) });
    const listener = vi.fn();
    const off = i18n.subscribe(listener);
    await i18n.setLanguage('ja');
    expect(listener).toHaveBeenCalledTimes(1);
    off();
    await i18n.setLanguage('zh');
    expect(listener).toHaveBeenCalledTimes(1);
  });
});
