// @vitest-environment happy-dom
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { makeClient, withClient } from './test-utils.js';
import { useI18n } from './use-i18n.js';

afterEach(cleanup);

describe('useI18n: the current language and t, zh the key language', () => {
  it('translates in zh once loaded, then in the language chosen with setLanguage, which is persisted', async () => {
    const { client } = makeClient();
    const { result } = renderHook(() => useI18n(), { wrapper: withClient(client) });
    expect(result.current).toMatchObject({ language: 'zh', ready: false });
    expect(result.current.t('sendFailed')).toBe('发送失败'); // a notice text: bundled
    expect(result.current.t('send')).toBe('send'); // an interface text: loads with the catalogue
    await act(() => result.current.setLanguage('zh'));
    expect(result.current).toMatchObject({ language: 'zh', ready: true });
    expect(result.current.t('send')).toBe('发送');
    const zhT = result.current.t;
    await act(() => result.current.setLanguage('en'));
    expect(result.current).toMatchObject({ language: 'en', ready: true });
    expect(result.current.t('send')).not.toBe('发送');
    expect(result.current.t).not.toBe(zhT);
    expect(client.state.getState().language).toBe('en');
  });

  it('an unknown language gives zh', async () => {
    const { client } = makeClient({}, { language: 'en' });
    const { result } = renderHook(() => useI18n(), { wrapper: withClient(client) });
    await act(() => result.current.setLanguage('xx'));
    expect(result.current.language).toBe('zh');
  });

  it('returns the same object while nothing changed', () => {
    const { client } = makeClient();
    const { result, rerender } = renderHook(() => useI18n(), { wrapper: withClient(client) });
    const first = result.current;
    rerender();
    expect(result.current).toBe(first);
  });
});
