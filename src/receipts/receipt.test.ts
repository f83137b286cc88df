import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../messages/types.js';
import { buildReceipt, messageTime, needsReceipt, toMillis } from './receipt.js';

const incoming: ChatMessage = {
  type: 100,
  from: 'agent:anna',
  to: 'visitor-1',
  fn: 'Anna',
  tn: 'Visitor',
  fa: 'https://cdn/anna.png',
  ta: 'https://cdn/visitor.png',
  fp: 'fp-original',
  mchId: 'M1',
  times: 1_700_000_000_123,
  dataContent: 'hello',
  isRead: 0,
};

describe('read-receipt message: from/to, fn/tn, fa/ta swapped; dataContent = original fp; mchId kept; new fp; type 104; cm = original time in ms', () => {
  it('builds every field of the spec', () => {
    const receipt = buildReceipt(incoming, () => 'fp-new');
    expect(receipt).toEqual({
      type: 104,
      from: 'visitor-1',
      to: 'agent:anna',
      fn: 'Visitor',
      tn: 'Anna',
      fa: 'https://cdn/visitor.png',
      ta: 'https://cdn/anna.png',
      dataContent: 'fp-original',
      mchId: 'M1',
      fp: 'fp-new',
      cm: 1_700_000_000_123,
    });
  });
  it('draws a new fp for every receipt', () => {
    let n = 0;
    const ids = () => `id-${(n += 1)}`;
    expect(buildReceipt(incoming, ids).fp).toBe('id-1');
    expect(buildReceipt(incoming, ids).fp).toBe('id-2');
  });
  it('takes cm from createTime when times is missing, and leaves cm out when there is no time', () => {
    const { times: _t, ...rest } = incoming;
    expect(buildReceipt({ ...rest, createTime: '1700000000999' }, () => 'x').cm).toBe(1_700_000_000_999);
    expect('cm' in buildReceipt(rest, () => 'x')).toBe(false);
  });
  it('does not copy the original content, read flag or other fields', () => {
    const receipt = buildReceipt({ ...incoming, isRead: 0, robot: 0, uuid: 'u' }, () => 'x');
    expect(receipt).not.toHaveProperty('isRead');
    expect(receipt).not.toHaveProperty('uuid');
    expect(receipt.dataContent).toBe('fp-original');
  });
  it('uses the reader id as from for a group message (whose to is the group id)', () => {
    const group = { ...incoming, to: 'group-9', isGroup: 1 };
    expect(buildReceipt(group, () => 'x', { readerId: 'visitor-1' })).toMatchObject({ from: 'visitor-1', to: 'agent:anna' });
    expect(buildReceipt(incoming, () => 'x', { readerId: 'someone-else' }).from).toBe('visitor-1');
  });
  it('throws a clear error for a message without fp or a bad id generator', () => {
    const { fp: _fp, ...noFp } = incoming;
    expect(() => buildReceipt(noFp, () => 'x')).toThrow(/no fp/);
    expect(() => buildReceipt(null as unknown as ChatMessage, () => 'x')).toThrow(/expected a chat message/);
    expect(() => buildReceipt(incoming, () => '')).toThrow(/createId/);
  });
});

describe('cm accepts ms numbers, numeric strings and yyyy-mm-dd hh:mm:ss date strings', () => {
  it('converts each form to ms', () => {
    expect(toMillis(1_700_000_000_000)).toBe(1_700_000_000_000);
    expect(toMillis(' 1700000000000 ')).toBe(1_700_000_000_000);
    expect(toMillis('2024-03-05 07:08:09')).toBe(new Date(2024, 2, 5, 7, 8, 9).getTime());
    expect(toMillis('2024-03-05')).toBe(new Date(2024, 2, 5).getTime());
    expect(toMillis('2024-03-05T07:08:09Z')).toBe(Date.UTC(2024, 2, 5, 7, 8, 9));
  });
  it('returns undefined for values that are not times', () => {
    for (const bad of [undefined, null, '', 'soon', Number.NaN, Infinity, {}, []]) expect(toMillis(bad as never)).toBeUndefined();
  });
  it('messageTime prefers times, then createTime', () => {
    expect(messageTime({ type: 100, times: 5, createTime: 9 })).toBe(5);
    expect(messageTime({ type: 100, createTime: '2024-01-01 00:00:00' })).toBe(new Date(2024, 0, 1).getTime());
    expect(messageTime({ type: 100, times: 'garbage', createTime: 9 })).toBe(9);
  });
});

describe('only received, unread, non-robot, non-group chat messages (types 100-103, 200) need a receipt', () => {
  it.each([100, 101, 102, 103, 200])('type %i from someone else needs one', (type) => {
    expect(needsReceipt({ ...incoming, type }, 'visitor-1')).toBe(true);
  });
  it.each([1, 51, 60, 104, 201, 300, 500, 999])('type %i needs none', (type) => {
    expect(needsReceipt({ ...incoming, type }, 'visitor-1')).toBe(false);
  });
  it('not for our own messages, read messages, robot messages, group messages or messages without fp', () => {
    expect(needsReceipt({ ...incoming, from: 'visitor-1' }, 'visitor-1')).toBe(false);
    expect(needsReceipt({ ...incoming, isRead: 1 }, 'visitor-1')).toBe(false);
    expect(needsReceipt({ ...incoming, robot: 1 }, 'visitor-1')).toBe(false);
    expect(needsReceipt({ ...incoming, robot: true }, 'visitor-1')).toBe(false);
    expect(needsReceipt({ ...incoming, isGroup: 1 }, 'visitor-1')).toBe(false);
    expect(needsReceipt({ ...incoming, fp: undefined }, 'visitor-1')).toBe(false);
    expect(needsReceipt({ ...incoming, from: undefined }, 'visitor-1')).toBe(false);
  });
  it('takes the message to as the user when the user id is not known yet', () => {
    expect(needsReceipt(incoming, undefined)).toBe(true);
    expect(needsReceipt({ ...incoming, from: 'visitor-1' }, undefined)).toBe(false);
  });
  it('never throws on garbage', () => {
    for (const bad of [null, undefined, 42, 'x', {}, { type: '100' }]) {
      expect(needsReceipt(bad as unknown as ChatMessage, 'visitor-1')).toBe(false);
    }
  });
});
