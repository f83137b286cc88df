/**
 * The connect payload's `d`, parsed once into a typed object (protocol §3, §5).
 */
import { describe, expect, it } from 'vitest';
import { CONNECT_REFUSED } from '../../src/socket/close-codes.js';
import { parseConnectData } from '../../src/socket/connect-check.js';

describe('connect data: visitors', () => {
  it('reads a visitor’s fields, trimmed and bounded; numbers as text', () => {
    expect(parseConnectData({ mchId: ' M1 ', platformId: 7, name: 'x'.repeat(100), language: 'en', groupId: 'g1', clientSecret: 's' })).toEqual({
      role: 'visitor',
      mchId: 'M1',
      platformId: '7',
      name: 'x'.repeat(64),
      language: 'en',
      groupId: 'g1',
      clientSecret: 's',
      arrival: {},
    });
  });

  it('reads what the visitor arrived with (d.entry), bounded; anything else is no parameters', () => {
    expect(parseConnectData({ mchId: 'M1', entry: { kefuId: 77, cpay: 'ORD-1', 'json.account': 'ann', evil: { x: 1 } } })).toMatchObject({ arrival: { kefuId: '77', cpay: 'ORD-1', 'json.account': 'ann' } });
    expect(parseConnectData({ entry: 'kefuId=77' })).toMatchObject({ arrival: {} });
  });

  it('treats the placeholders of old embeds as none: language null/0/no, groupId null/0/data3', () => {
    for (const [language, groupId] of [
      ['null', 'null'],
      ['0', '0'],
      ['no', 'data3'],
    ]) {
      expect(parseConnectData({ role: 'visitor', language, groupId })).toMatchObject({ language: '', groupId: '' });
    }
  });

  it('keeps a client secret only when it is a string', () => {
    expect(parseConnectData({ clientSecret: 42 })).toMatchObject({ clientSecret: undefined });
    expect(parseConnectData({})).toMatchObject({ role: 'visitor', mchId: '', platformId: '', name: '', language: '', groupId: '', clientSecret: undefined });
  });

  it('keeps an identity token (protocol §3b) as given; absent, null or empty is none; any other type is null (refused 4006 invalid)', () => {
    expect(parseConnectData({ identityToken: 'a.b.c' })).toMatchObject({ identityToken: 'a.b.c' });
    for (const none of [undefined, null, '']) expect(parseConnectData({ identityToken: none })).toMatchObject({ identityToken: undefined });
    for (const bad of [42, { jwt: 'a.b.c' }, ['a.b.c'], true]) expect(parseConnectData({ identityToken: bad })).toMatchObject({ identityToken: null });
  });

  it('refuses an unknown role with 4001 unknown role', () => {
    expect(() => parseConnectData({ role: 'admin' })).toThrow(expect.objectContaining({ code: CONNECT_REFUSED, message: 'unknown role' }));
  });
});

describe('connect data: agents', () => {
  it('logs in by password; the password is bounded, a missing one is empty', () => {
    expect(parseConnectData({ role: 'agent', account: ' alice ', password: 'p'.repeat(2000), language: 'en' })).toEqual({
      role: 'agent',
      account: 'alice',
      login: { by: 'password', password: 'p'.repeat(1024) },
      language: 'en',
    });
    expect(parseConnectData({ role: 'agent', account: 'alice' })).toMatchObject({ login: { by: 'password', password: '' } });
  });

  it('logs in by token when a token is given and no password', () => {
    expect(parseConnectData({ role: 'agent', account: 'alice', token: 'tok' })).toMatchObject({ login: { by: 'token', token: 'tok' } });
    expect(parseConnectData({ role: 'agent', account: 'alice', token: 'tok', password: 'pw' })).toMatchObject({ login: { by: 'password', password: 'pw' } });
    expect(parseConnectData({ role: 'agent', account: 'alice', token: 5 })).toMatchObject({ login: { by: 'password', password: '' } });
  });
});
