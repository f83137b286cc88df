import { describe, expect, it, vi } from 'vitest';
import { APP_TEXT_TRANSLATIONS } from '../env/app-text-translations.js';
import { AppTextCatalogue, type AppTextTranslations } from '../env/app-texts.js';
import { conversationKey, conversationOfPath } from './prepare.js';
import { agentRefusals } from '../agent/agent-client.js';
import { CloseCode } from '@kefu-im/sdk/codes';
import { AppRuntime, appReconnectPolicy } from './runtime.js';

const ctx = (attempt: number, closeCode?: number) => ({ attempt, elapsedMs: 0, reason: 'close', visible: true, online: true, ...(closeCode ? { closeCode } : {}) });

describe('spec §9: reconnect delay 5000 ms, limit 10; no reconnect after unauthorised or banned', () => {
  it('waits the delay up to the limit, then goes on slower (never gives up by itself)', () => {
    const policy = appReconnectPolicy(5_000, 10, () => undefined);
    expect(policy(ctx(1))).toBe(5_000);
    expect(policy(ctx(10, 1006))).toBe(5_000);
    expect(policy(ctx(11))).toEqual(expect.any(Number));
    expect(policy(ctx(500))).toBeLessThanOrEqual(10_000);
  });

  it('a visitor stops at once and reports a 4003 close; a 4001 (expired key session) goes on', () => {
    const fatal = vi.fn();
    const policy = appReconnectPolicy(5_000, 10, fatal);
    expect(policy(ctx(1, CloseCode.Unauthorized))).toBe(5_000);
    expect(policy(ctx(1, CloseCode.Banned))).toBeNull();
    expect(fatal.mock.calls).toEqual([[4003]]);
  });

  it('an agent stops at once and reports a 4001 (refused login) or 4003 close', () => {
    const fatal = vi.fn();
    const policy = appReconnectPolicy(5_000, 10, fatal, [CloseCode.Unauthorized, CloseCode.Banned]);
    expect(policy(ctx(1, CloseCode.Unauthorized))).toBeNull();
    expect(policy(ctx(1, CloseCode.Banned))).toBeNull();
    expect(fatal.mock.calls).toEqual([[4001], [4003]]);
  });

  it('the desk retries a first 4001 at once (fresh keys), stops at a second one in a row, and waits out any other close for ever', () => {
    const fatal = vi.fn();
    const policy = appReconnectPolicy(5_000, 10, fatal, [CloseCode.Banned], agentRefusals);
    expect(policy(ctx(1, CloseCode.Unauthorized))).toBe(0);
    expect(fatal).not.toHaveBeenCalled();
    expect(policy(ctx(2, CloseCode.Unauthorized))).toBeNull();
    expect(fatal.mock.calls).toEqual([[4001]]);
    expect(policy(ctx(40, 1006))).toEqual(expect.any(Number)); // a server away for minutes: still trying
    expect(policy(ctx(1, CloseCode.Banned))).toBeNull();
  });
});

describe('spec §4: start-up runs for the conversation of the first page', () => {
  it('knows which paths show a conversation', () => {
    expect(conversationOfPath('/')).toEqual({ route: 'kefu' });
    expect(conversationOfPath('/kefu/abc')).toEqual({ route: 'kefu', id: 'abc' });
    expect(conversationOfPath('/group/G1/%E7%BE%A4')).toEqual({ route: 'group', id: 'G1', name: '群' });
    expect(conversationOfPath('/404')).toBeNull();
    expect(conversationOfPath('/agent')).toBeNull();
    expect(conversationOfPath('/kefu/a/b')).toBeNull();
  });

  it('keys one client per conversation', () => {
    expect(conversationKey({ route: 'kefu', id: 'abc' })).not.toBe(conversationKey({ route: 'group', id: 'abc' }));
    expect(conversationKey({ route: 'kefu' })).toBe(conversationKey(conversationOfPath('/') ?? { route: 'group' }));
  });
});

describe('issue 13: a language is shown only with its app texts (no zh flash, never a blank page)', () => {
  const config = { baseUrl: 'http://127.0.0.1:1', socketUrl: 'ws://127.0.0.1:1/ws', socketKey: 'k,s', aesSwitch: false };

  it('loads the app texts before the app switches to the language', async () => {
    let deliver: (module: { APP_TEXT_TRANSLATIONS: AppTextTranslations }) => void = () => undefined;
    const texts = new AppTextCatalogue(() => new Promise((resolve) => (deliver = resolve)), () => undefined);
    const runtime = new AppRuntime(config, undefined, texts);
    const shown: string[] = [];
    runtime.i18n.subscribe(() => shown.push(`${runtime.i18n.language}: ${texts.text(runtime.i18n.language, 'more')}`));
    const switching = runtime.setLanguage('en');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(runtime.i18n.language).toBe('zh'); // still waiting for the app texts
    deliver({ APP_TEXT_TRANSLATIONS });
    expect(await switching).toBe('en');
    expect(shown).toEqual(['en: More']);
  });

  it('switches all the same when the app texts cannot be fetched: their labels stay zh, the failure is reported', async () => {
    const report = vi.fn();
    const texts = new AppTextCatalogue(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module')), report);
    const runtime = new AppRuntime(config, undefined, texts);
    expect(await runtime.setLanguage('de')).toBe('de');
    expect(runtime.i18n.t('send')).toBe('Senden'); // the SDK texts are German
    expect(texts.text('de', 'more')).toBe('更多');
    expect(report).toHaveBeenCalledTimes(1);
  });
});
