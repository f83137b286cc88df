import { describe, expect, it, vi } from 'vitest';
import type { StorageLike } from '../options.js';
import { createClientState } from './client-state.js';
import { memoryStorage } from './storage.js';

const ids = (): (() => string) => {
  let n = 0;
  return () => `id-${++n}`;
};

describe('"uuid, kept in local storage under \'uuid\'"', () => {
  it('generates and stores a uuid when none is stored', () => {
    const storage = memoryStorage();
    const state = createClientState({ storage, createId: ids() });
    expect(state.getState().uuid).toBe('id-1');
    expect(storage.getItem('uuid')).toBe('id-1');
  });

  it('restores the stored uuid on load', () => {
    const storage = memoryStorage();
    storage.setItem('uuid', 'kept');
    const createId = vi.fn(() => 'new');
    expect(createClientState({ storage, createId }).getState().uuid).toBe('kept');
    expect(createId).not.toHaveBeenCalled();
  });

  it('refuses a createId that returns no string', () => {
    expect(() => createClientState({ storage: memoryStorage(), createId: () => '' })).toThrow(/non-empty string/);
    expect(() => createClientState({ storage: memoryStorage() } as never)).toThrow(/storage, createId/);
  });
});

describe('"paramsData, kept in local storage as JSON under \'paramsData\'"', () => {
  it('restores and persists it as JSON', () => {
    const storage = memoryStorage();
    storage.setItem('paramsData', '{"mchId":7}');
    const state = createClientState({ storage, createId: ids() });
    expect(state.getState().paramsData).toEqual({ mchId: 7 });
    state.setParamsData({ mchId: 8, platformId: 'p' });
    expect(JSON.parse(storage.getItem('paramsData') ?? 'null')).toEqual({ mchId: 8, platformId: 'p' });
    state.setParamsData(null);
    expect(storage.getItem('paramsData')).toBeNull();
  });

  it('gives null for corrupt JSON or a non-object, without throwing', () => {
    for (const bad of ['{oops', '[1,2]', '"str"', '42']) {
      const storage = memoryStorage();
      storage.setItem('paramsData', bad);
      expect(createClientState({ storage, createId: ids() }).getState().paramsData, bad).toBeNull();
    }
  });
});

describe('"Current language (initially \'no\'; the stored language defaults to zh, fallback zh)"', () => {
  it("starts at 'no' even when a language is stored", () => {
    const storage = memoryStorage();
    storage.setItem('language', 'en');
    const state = createClientState({ storage, createId: ids() });
    expect(state.getState().language).toBe('no');
    expect(state.getStoredLanguage()).toBe('en');
  });

  it('defaults the stored language to zh when missing or unsupported', () => {
    const storage = memoryStorage();
    const state = createClientState({ storage, createId: ids() });
    expect(state.getStoredLanguage()).toBe('zh');
    storage.setItem('language', 'xx-YY');
    expect(state.getStoredLanguage()).toBe('zh');
    storage.setItem('language', 'zh-TW');
    expect(state.getStoredLanguage()).toBe('zh-Hant');
  });

  it("persists a chosen language, never 'no'", () => {
    const storage = memoryStorage();
    const state = createClientState({ storage, createId: ids() });
    state.setState({ language: 'vi' });
    expect(storage.getItem('language')).toBe('vi');
    state.setState({ language: 'no' });
    expect(storage.getItem('language')).toBe('vi');
  });
});

describe('"The state is persisted to local storage and restored on load"', () => {
  it('round-trips merchant info and the leave-message flag', () => {
    const storage = memoryStorage();
    const first = createClientState({ storage, createId: ids() });
    first.setMerchantInfo({ kefuAvatar2: 'a.png', name: 'Shop' });
    first.setLeaveMessage(true);
    first.setParamsData({ mchId: 1 });
    const second = createClientState({ storage, createId: ids() });
    expect(second.getState()).toEqual({
      language: 'no',
      uuid: 'id-1',
      clientSecret: null,
      paramsData: { mchId: 1 },
      merchantInfo: { kefuAvatar2: 'a.png', name: 'Shop' },
      leaveMessage: true,
    });
  });

  it('restores defaults from a corrupt saved state', () => {
    const storage = memoryStorage();
    storage.setItem('kefu-im:state', '{"merchantInfo":[1],"leaveMessage":"yes"}');
    const state = createClientState({ storage, createId: ids() });
    expect(state.getState()).toMatchObject({ merchantInfo: null, leaveMessage: false });
  });

  it('never throws when storage writes fail, and reports them', () => {
    const onError = vi.fn();
    const storage: StorageLike = {
      ...memoryStorage(),
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    const state = createClientState({ storage, createId: ids(), onError });
    expect(() => state.setLeaveMessage(true)).not.toThrow();
    expect(state.getState().leaveMessage).toBe(true);
    expect(onError).toHaveBeenCalled();
  });

  it('keeps the stored value when a value cannot be serialised', () => {
    const storage = memoryStorage();
    const onError = vi.fn();
    const state = createClientState({ storage, createId: ids(), onError });
    state.setMerchantInfo({ name: 'ok' });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    state.setMerchantInfo(cyclic);
    expect(JSON.parse(storage.getItem('kefu-im:state') ?? '{}').merchantInfo).toEqual({ name: 'ok' });
    expect(onError).toHaveBeenCalledTimes(1);
  });

  it('stops persisting after destroy', () => {
    const storage = memoryStorage();
    const state = createClientState({ storage, createId: ids() });
    state.destroy();
    state.setLeaveMessage(true);
    expect(storage.getItem('kefu-im:state')).toBeNull();
  });

  it('notifies subscribers with the new and previous state', () => {
    const state = createClientState({ storage: memoryStorage(), createId: ids() });
    const listener = vi.fn();
    state.subscribe(listener);
    state.setMerchantInfo({ a: 1 });
    expect(listener).toHaveBeenCalledWith(expect.objectContaining({ merchantInfo: { a: 1 } }), expect.objectContaining({ merchantInfo: null }));
  });
});

describe('the client secret (protocol §3a) is kept beside the uuid', () => {
  it('persists it under `clientSecret`, restores it with its uuid, and removes it with a new uuid', () => {
    const storage = memoryStorage();
    const first = createClientState({ storage, createId: ids() });
    expect(first.getState().clientSecret).toBeNull();
    first.setState({ clientSecret: 'sec-1' });
    expect(storage.getItem('clientSecret')).toBe('sec-1');
    const second = createClientState({ storage, createId: ids() });
    expect(second.getState()).toMatchObject({ uuid: 'id-1', clientSecret: 'sec-1' });
    expect(second.readStoredIdentity()).toEqual({ uuid: 'id-1', clientSecret: 'sec-1' });
    second.setState({ uuid: 'id-2', clientSecret: null });
    expect(storage.getItem('uuid')).toBe('id-2');
    expect(storage.getItem('clientSecret')).toBeNull();
  });

  it('a secret left in storage without its uuid is dropped when a new uuid is made', () => {
    const storage = memoryStorage();
    storage.setItem('clientSecret', 'orphan');
    const state = createClientState({ storage, createId: ids() });
    expect(state.getState().clientSecret).toBeNull();
    expect(storage.getItem('clientSecret')).toBeNull();
  });
});
