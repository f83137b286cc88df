import { describe, expect, it, vi } from 'vitest';
import type { PermitApi } from '../http/permit-api.js';
import type { MessagePage } from '../http/types.js';
import { HistoryPager } from './history.js';
import { MessageList } from './message-list.js';
import type { ChatMessage } from './types.js';

const msg = (n: number, type = 100): ChatMessage => ({ type, fp: `m${n}`, from: 'a', to: 'u', dataContent: `${n}`, createTime: n * 1000 });

function setup(pages: (q: { before?: number; after?: number; size: number }) => Promise<MessagePage>) {
  const messages = new MessageList();
  const findMsgForCus = vi.fn(pages);
  const routed: ChatMessage[] = [];
  const api = { findMsgForCus, clientGroupMsgList: vi.fn() } as unknown as PermitApi;
  const pager = new HistoryPager({ messages, api, clientId: () => 'c1', connectData: () => ({ mchId: 7, platformId: 9 }), route: (m) => routed.push(m) });
  return { messages, pager, findMsgForCus, routed };
}

describe('history paging: the SDK holds hasMore/loading/error as a subscribable snapshot', () => {
  it('pages backwards from the oldest time seen (control messages count but do not join the list)', async () => {
    const { pager, messages, findMsgForCus } = setup(async (q) =>
      q.before === undefined ? { list: [msg(5, 300), msg(6)], hasMore: true } : { list: [msg(4)], hasMore: false },
    );
    const seen: boolean[] = [];
    pager.subscribe(() => seen.push(pager.getSnapshot().loading));
    expect(pager.getSnapshot()).toEqual({ loading: false, hasMore: true, error: null });
    await pager.loadOlder(2);
    expect(messages.getSnapshot().map((m) => m.fp)).toEqual(['m6']);
    await pager.loadOlder(2);
    expect(findMsgForCus.mock.calls[1]![0]).toMatchObject({ before: 5000, size: 2, clientId: 'c1', mchId: 7, platformId: 9 });
    expect(messages.getSnapshot().map((m) => m.fp)).toEqual(['m4', 'm6']);
    expect(pager.getSnapshot()).toEqual({ loading: false, hasMore: false, error: null });
    expect(seen).toEqual([true, false, true, false]);
  });

  it('calls made while a page loads share it; a failure is kept as error and rethrown', async () => {
    let reject: (e: Error) => void = () => undefined;
    const { pager, findMsgForCus } = setup(() => new Promise((_, r) => (reject = r)));
    const a = pager.loadOlder();
    expect(pager.loadOlder()).toBe(a);
    expect(pager.getSnapshot().loading).toBe(true);
    reject(new Error('boom'));
    await expect(a).rejects.toThrow('boom');
    expect(pager.getSnapshot()).toMatchObject({ loading: false, hasMore: true, error: { message: 'boom' } });
    expect(findMsgForCus).toHaveBeenCalledTimes(1);
  });

  it('fetchMissed routes every missed message, page after page, newer than the newest held', async () => {
    const { pager, messages, routed, findMsgForCus } = setup(async (q) =>
      q.after === 2000 ? { list: [msg(3), msg(4)], hasMore: true } : { list: [msg(5)], hasMore: false },
    );
    messages.upsert(msg(2));
    expect(await pager.fetchMissed()).toBe(3);
    expect(routed.map((m) => m.fp)).toEqual(['m3', 'm4', 'm5']);
    expect(findMsgForCus.mock.calls.map((c) => c[0].after)).toEqual([2000, 4000]);
  });
});

describe('history paging of any conversation: a page function, what is held, a catch-up from a mark', () => {
  it('pages with the given function from the oldest time the given holdings report', async () => {
    const messages = new MessageList();
    const fetchPage = vi.fn(async (q: { before?: number }) => ({ list: q.before === 3000 ? [msg(2, 300), msg(2.5)] : [], hasMore: false }));
    const held = { oldestTime: () => 3000, newestTime: () => 9000, newestSeq: () => undefined };
    const pager = new HistoryPager({ messages, fetchPage, held, keepOlder: () => true, route: () => undefined });
    await pager.loadOlder(10);
    expect(fetchPage).toHaveBeenCalledWith({ before: 3000, size: 10 });
    expect(messages.getSnapshot().map((m) => m.fp)).toEqual(['m2', 'm2.5']); // session events kept when asked
    expect(pager.heldMark()).toEqual({ time: 9000 });
  });

  it('heldMark leaves out the own messages\' seqs when it knows who is self', () => {
    const messages = new MessageList();
    messages.upsert({ ...msg(1), from: 'agent:a', seq: 6 });
    messages.upsert({ ...msg(2), from: 'u1', seq: 8 });
    const pager = (selfId?: () => string) => new HistoryPager({ messages, fetchPage: async () => ({ list: [], hasMore: false }), route: () => undefined, ...(selfId ? { selfId } : {}) });
    expect(pager(() => 'u1').heldMark()).toEqual({ seq: 6 });
    expect(pager().heldMark()).toEqual({ seq: 8 });
  });

  it('fetchMissed(from) starts after the given seq, whatever is held now', async () => {
    const routed: ChatMessage[] = [];
    const seqMsg = (n: number): ChatMessage => ({ ...msg(n), seq: n });
    const fetchPage = vi.fn(async (q: { afterSeq?: number }) => (q.afterSeq === 4 ? { list: [seqMsg(5), seqMsg(6)], hasMore: true } : { list: [], hasMore: true }));
    const pager = new HistoryPager({ messages: new MessageList(), fetchPage, route: (m) => routed.push(m) });
    expect(await pager.fetchMissed(5, { seq: 4 })).toBe(2);
    expect(routed.map((m) => m.fp)).toEqual(['m5', 'm6']);
    expect(fetchPage.mock.calls.map((c) => c[0].afterSeq)).toEqual([4, 6]); // stops on an empty page
  });
});
