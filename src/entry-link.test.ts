import { describe, expect, it } from 'vitest';
import { decodeEntryLinkParam, decodeEntryParams, encodeEntryLinkParam, toEntryValue } from './entry-link.js';

describe('Empty input gives all-empty values', () => {
  it('every field is the empty string', () => {
    expect(decodeEntryParams('')).toEqual({ mchId: '', kefuId: '', platformId: '', language: '', groupId: '' });
  });
  it('a non-string is treated as empty rather than crashing', () => {
    expect(decodeEntryParams(undefined as unknown as string).mchId).toBe('');
  });
});

describe('The string is split on colons. Strings that look numeric become numbers', () => {
  it.each([
    ['1001', 1001],
    ['-2', -2],
    ['2.5', 2.5],
    ['007', 7],
    ['abc', 'abc'],
    ['', ''],
    ['1e3', '1e3'],
    ['0x10', '0x10'],
    [' 1', ' 1'],
    ['12a', '12a'],
  ])('%j -> %j', (segment, value) => {
    expect(toEntryValue(segment)).toBe(value);
  });
  it('numeric ids come out as numbers, others as strings', () => {
    expect(decodeEntryParams('data:x:1001:p7:42')).toMatchObject({ mchId: 1001, platformId: 'p7', kefuId: 42 });
  });
});

describe('Third segment = merchant id. Fourth = platform id', () => {
  it.each(['data', 'data2', 'data3'])('in layout %s', (layout) => {
    const p = decodeEntryParams(`${layout}:x:m1:p1:k1`);
    expect(p.mchId).toBe('m1');
    expect(p.platformId).toBe('p1');
  });
});

describe('Fifth = agent id (layouts data and data3 only)', () => {
  it('data reads the agent id', () => {
    expect(decodeEntryParams('data:x:1:2:77').kefuId).toBe(77);
  });
  it('data3 reads the agent id', () => {
    expect(decodeEntryParams('data3:x:1:2:77').kefuId).toBe(77);
  });
  it('data2 ignores segment 5', () => {
    expect(decodeEntryParams('data2:x:1:2:77').kefuId).toBe('');
  });
});

describe("In data3 the sixth segment = language, where 'null' or 0 means none", () => {
  it('reads the language', () => {
    expect(decodeEntryParams('data3:x:1:2:3:en').language).toBe('en');
  });
  it.each(['null', '0'])("%j means none: the default 'no'", (seg) => {
    expect(decodeEntryParams(`data3:x:1:2:3:${seg}`).language).toBe('no');
  });
  it('the other layouts never read a language', () => {
    expect(decodeEntryParams('data:x:1:2:3:en').language).toBe('no');
    expect(decodeEntryParams('data2:x:1:2:3:en').language).toBe('no');
  });
});

describe("The ninth segment = group id, where 'null' or 'data3' means 0", () => {
  it('reads the group id', () => {
    expect(decodeEntryParams('data3:x:1:2:3:en:a:b:55').groupId).toBe(55);
    expect(decodeEntryParams('data3:x:1:2:3:en:a:b:g-1').groupId).toBe('g-1');
  });
  it.each(['null', 'data3'])('%j means 0', (seg) => {
    expect(decodeEntryParams(`data3:x:1:2:3:en:a:b:${seg}`).groupId).toBe(0);
  });
  it('the other layouts never read a group id', () => {
    expect(decodeEntryParams('data:x:1:2:3:en:a:b:55').groupId).toBe('0');
  });
});

describe("Defaults: language 'no', group id '0'", () => {
  it('a data3 link without segments 6 and 9 gets the defaults', () => {
    expect(decodeEntryParams('data3:x:1:2:3')).toEqual({ mchId: 1, platformId: 2, kefuId: 3, language: 'no', groupId: '0' });
  });
  it('empty segments count as missing', () => {
    expect(decodeEntryParams('data3:x:1:2:3::a:b:')).toMatchObject({ language: 'no', groupId: '0' });
  });
});

describe('Bad input never crashes', () => {
  it('an unknown layout reads no segment and keeps the defaults', () => {
    expect(decodeEntryParams('data9:x:1:2:3:en:a:b:5')).toEqual({ mchId: '', kefuId: '', platformId: '', language: 'no', groupId: '0' });
  });
  it('a layout that looks numeric is unknown', () => {
    expect(decodeEntryParams('3:x:1:2').mchId).toBe('');
  });
  it('too few segments leave the missing ids empty', () => {
    expect(decodeEntryParams('data3')).toEqual({ mchId: '', kefuId: '', platformId: '', language: 'no', groupId: '0' });
    expect(decodeEntryParams('data:x:1')).toEqual({ mchId: 1, kefuId: '', platformId: '', language: 'no', groupId: '0' });
  });
});

describe('the /kefu/<param> segment is base64url(raw) without padding', () => {
  it('round-trips a raw entry string', () => {
    const raw = 'data3:x:1001:2:77:zh:a:b:9';
    const param = encodeEntryLinkParam(raw);
    expect(param).toBe(Buffer.from(raw).toString('base64url'));
    expect(param).not.toMatch(/[=+/]/);
    expect(decodeEntryLinkParam(param)).toBe(raw);
    expect(decodeEntryParams(decodeEntryLinkParam(param))).toEqual({ mchId: 1001, platformId: 2, kefuId: 77, language: 'zh', groupId: 9 });
  });
  it('throws a clear error for a param that is not base64url', () => {
    expect(() => decodeEntryLinkParam('%%%')).toThrow(/Invalid base64url string/);
  });
});
