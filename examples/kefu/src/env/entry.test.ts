import { describe, expect, it, vi } from 'vitest';
import { arrivalParams, entryGroupId, entryRaw, MAX_ARRIVAL_PARAMS, readEntryQuery, resolveEntry } from './entry.js';

const RAW = 'data3:kefu:M1001:P01:demo:en:0:0:G100';
const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64url');

describe('spec §2: "Query parameters read: param, isapp, json, cpay"', () => {
  it('reads the four parameters and the route\'s params', () => {
    const q = readEntryQuery(`?param=${b64(RAW)}&isapp=1&json=${encodeURIComponent('{"account":"u1"}')}&cpay=ORD1&params=x`);
    expect(q).toEqual({ param: b64(RAW), params: 'x', isApp: true, json: { account: 'u1' }, cpay: 'ORD1' });
  });

  it('ignores bad values: json that is not an object, blank values, isapp other than yes', () => {
    expect(readEntryQuery('?json=[1,2]&cpay=%20&isapp=0')).toEqual({ param: null, params: null, isApp: false, json: null, cpay: null });
    expect(readEntryQuery('?json={oops')).toMatchObject({ json: null });
    expect(readEntryQuery('')).toEqual({ param: null, params: null, isApp: false, json: null, cpay: null });
  });
});

describe('spec §2: "decoding it yields mchId and platformId"', () => {
  it('takes base64url of the raw entry, a raw entry, or asks the server for an opaque value', async () => {
    const decodeParam = vi.fn(async () => RAW);
    await expect(entryRaw(b64(RAW), decodeParam)).resolves.toBe(RAW);
    await expect(entryRaw(RAW, decodeParam)).resolves.toBe(RAW);
    expect(decodeParam).not.toHaveBeenCalled();
    await expect(entryRaw('demo', decodeParam)).resolves.toBe(RAW);
    expect(decodeParam).toHaveBeenCalledWith('demo');
  });

  it('resolves the path id first, then param, then params, then the last visit', async () => {
    const never = async (): Promise<string> => {
      throw new Error('not called');
    };
    const other = 'data2:x:M2:P2';
    const query = readEntryQuery(`?param=${b64(other)}`);
    await expect(resolveEntry(b64(RAW), query, null, never)).resolves.toMatchObject({ mchId: 'M1001', platformId: 'P01', kefuId: 'demo', language: 'en', groupId: 'G100' });
    await expect(resolveEntry(undefined, query, null, never)).resolves.toMatchObject({ mchId: 'M2', platformId: 'P2', source: b64(other) });
    await expect(resolveEntry(undefined, readEntryQuery(''), b64(RAW), never)).resolves.toMatchObject({ mchId: 'M1001', source: b64(RAW) });
    await expect(resolveEntry(undefined, readEntryQuery(''), null, never)).resolves.toMatchObject({ mchId: '', platformId: '', source: '' });
  });

  it('treats group id 0 and "0" as no group', () => {
    expect(entryGroupId({ groupId: 0 })).toBeNull();
    expect(entryGroupId({ groupId: '0' })).toBeNull();
    expect(entryGroupId({ groupId: 'G1' })).toBe('G1');
    expect(entryGroupId({ groupId: 7 })).toBe('7');
  });
});

describe('what the visitor arrived with (connect data entry, for the desk\'s context panel)', () => {
  it('reports the link\'s agent and language, the app flag, the order number and the host page\'s json fields', () => {
    const query = readEntryQuery(`?isapp=1&cpay=ORD-9&json=${encodeURIComponent('{"account":"u1","vip":true,"level":3,"nested":{"x":1},"bad key":"x"}')}`);
    expect(arrivalParams({ kefuId: 77, language: 'en' }, query)).toEqual({ kefuId: '77', language: 'en', isapp: '1', cpay: 'ORD-9', 'json.account': 'u1', 'json.vip': 'true', 'json.level': '3' });
  });

  it('leaves out what is empty or the default, and stays within the server\'s bound', () => {
    expect(arrivalParams({ kefuId: '', language: 'no' }, readEntryQuery(''))).toEqual({});
    expect(arrivalParams(null, readEntryQuery('?cpay=A1'))).toEqual({ cpay: 'A1' });
    const many = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${i}`, 'v']));
    expect(Object.keys(arrivalParams(null, readEntryQuery(`?json=${encodeURIComponent(JSON.stringify(many))}`)))).toHaveLength(MAX_ARRIVAL_PARAMS);
  });
});
