import { describe, expect, it, vi } from 'vitest';
import type { HistoryQuery, MessagePage } from '../http/types.js';
import type { ChatMessage } from '../messages/types.js';
import { Disposables } from '../timers.js';
import { DeskConversations } from './conversations.js';
import { DeskQueue } from './queue.js';
import { FakeDeskClient, sessionEvent, snapshotFrame } from './test-utils.js';

const text = (fp: string, from: string, to: string, t: number, seq?: number): ChatMessage => ({ type: 100, fp, from, to, dataContent: fp, createTime: t, ...(seq === undefined ? {} : { seq }) });

function setup(pages: (q: HistoryQuery) => Promise<MessagePage> = async () => ({ list: [], hasMore: false })) {
  const client = new FakeDeskClient();
  client.pages = pages;
  const disposables = new Disposables();
  let now = 50_000;
  const queue = new DeskQueue(client, disposables);
  const conversations = new DeskConversations(client, { disposables, timers: { now: () => now }, sessions: queue.store, pageSize: 50, maxCatchUpPages: 5 });
  return { client, disposables, conversations, advance: (ms: number) => (now += ms) };
}

const fps = (client: FakeDeskClient, clientId: string) => client.messages.getSnapshot().filter((m) => m.from === clientId || m.to === clientId).map((m) => m.fp);
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('a conversation listed by a snapshot shows its whole history (the agent history call)', () => {
  it('loads the newest page of the visitor on first sight, robot phase and session events included', async () => {
    const { client, conversations } = setup(async () => ({ list: [sessionEvent({ event: 'created', sessionId: 's1' }, 900), text('q', 'v1', 'robot', 1000), text('a', 'robot', 'v1', 1001)], hasMore: true }));
    client.frame(snapshotFrame([{ sessionId: 's1', clientId: 'v1' }]));
    await vi.waitFor(() => expect(conversations.history('v1').getState()).toMatchObject({ loaded: true, hasMore: true, loading: false }));
    expect(client.api.findMsgForCus).toHaveBeenCalledWith({ clientId: 'v1', mchId: 'M1', platformId: 'P1', size: 50 });
    expect(fps(client, 'v1')).toEqual(['q', 'a']);
    expect(conversations.store.getState().list).toEqual([expect.objectContaining({ sessionId: 's1', clientId: 'v1', status: 'active' })]);
  });

  it('a failed page is kept as the conversation’s error, and loadOlder pages back from the oldest held', async () => {
    let fail = true;
    const { client, conversations } = setup(async (q) => {
      if (fail) throw new Error('down');
      return q.before === 1000 ? { list: [text('old', 'v1', 'robot', 500)], hasMore: false } : { list: [], hasMore: false };
    });
    client.frame(snapshotFrame([{ sessionId: 's1', clientId: 'v1' }]));
    await vi.waitFor(() => expect(conversations.history('v1').getState().error?.message).toBe('down'));
    fail = false;
    client.messages.upsert(text('live', 'v1', 'agent:alice', 1000));
    await conversations.loadOlder('v1');
    expect(fps(client, 'v1')).toEqual(['old', 'live']);
    expect(conversations.history('v1').getState()).toMatchObject({ loaded: true, hasMore: false, error: null });
  });
});

describe('catch-up: after a reconnect each open conversation fetches what follows what it held', () => {
  it('asks for afterSeq the highest seq held when the socket came back, page by page', async () => {
    const calls: HistoryQuery[] = [];
    const { client } = setup(async (q) => {
      calls.push(q);
      if (q.afterSeq === 2) return { list: [text('m3', 'v1', 'agent:alice', 3000, 3), text('m4', 'v1', 'agent:alice', 4000, 4)], hasMore: true };
      if (q.afterSeq === 4) return { list: [text('m5', 'v1', 'agent:alice', 5000, 5)], hasMore: false };
      return { list: [text('m1', 'v1', 'agent:alice', 1000, 1), text('m2', 'v1', 'agent:alice', 2000, 2)], hasMore: false };
    });
    client.frame(snapshotFrame([{ sessionId: 's1', clientId: 'v1' }]));
    await vi.waitFor(() => expect(fps(client, 'v1')).toEqual(['m1', 'm2']));
    client.emit('socket login', { reconnected: true });
    client.frame(snapshotFrame([{ sessionId: 's1', clientId: 'v1' }]));
    await vi.waitFor(() => expect(fps(client, 'v1')).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']));
    expect(calls.slice(1).map((q) => [q.afterSeq, q.size])).toEqual([
      [2, 100],
      [4, 100],
    ]);
  });

  it('a first login (not a reconnect) fetches nothing more', async () => {
    const { client } = setup();
    client.frame(snapshotFrame([{ sessionId: 's1', clientId: 'v1' }]));
    await flush();
    client.emit('socket login', { reconnected: false });
    client.frame(snapshotFrame([{ sessionId: 's1', clientId: 'v1' }]));
    await flush();
    expect(client.api.findMsgForCus).toHaveBeenCalledTimes(1);
  });
});

describe('an ended conversation stays on the desk, read-only, until the agent closes it', () => {
  it('the visitor ends: status ended by the visitor at the event’s time; the next snapshot does not remove it; close does', async () => {
    const { client, conversations } = setup();
    client.frame(snapshotFrame([{ sessionId: 's1', clientId: 'v1' }]));
    client.frame(sessionEvent({ event: 'ended', sessionId: 's1' }, 7000));
    client.frame(snapshotFrame([]));
    expect(conversations.store.getState().list).toEqual([expect.objectContaining({ sessionId: 's1', status: 'ended', endedBy: 'visitor', endedAt: 7000 })]);
    conversations.close('s1');
    expect(conversations.store.getState().list).toEqual([]);
  });

  it('the agent ends (302): ended by the agent; an open conversation cannot be closed', () => {
    const { client, conversations } = setup();
    client.frame(snapshotFrame([{ sessionId: 's1', clientId: 'v1' }, { sessionId: 's2', clientId: 'v2' }]));
    conversations.end('v1');
    expect(client.sent).toEqual([{ type: 302, to: 'v1', dataContent: '{}' }]);
    client.frame(snapshotFrame([{ sessionId: 's2', clientId: 'v2' }]));
    conversations.close('s2');
    expect(conversations.store.getState().list).toEqual([
      expect.objectContaining({ sessionId: 's1', status: 'ended', endedBy: 'agent', endedAt: 50_000 }),
      expect.objectContaining({ sessionId: 's2', status: 'active' }),
    ]);
  });

  it('an end asked for a visitor without an open conversation is forgotten: a later end by that visitor is the visitor’s', () => {
    const { client, conversations } = setup();
    conversations.end('v1');
    client.frame(snapshotFrame([]));
    client.frame(snapshotFrame([{ sessionId: 's1', clientId: 'v1' }]));
    client.frame(sessionEvent({ event: 'ended', sessionId: 's1' }, 7000));
    expect(conversations.store.getState().list).toEqual([expect.objectContaining({ sessionId: 's1', endedBy: 'visitor' })]);
  });

  it('the visitor’s rating (session event rated) shows on the conversation', () => {
    const { client, conversations } = setup();
    client.frame(snapshotFrame([{ sessionId: 's1', clientId: 'v1' }]));
    client.frame(sessionEvent({ event: 'ended', sessionId: 's1' }, 7000));
    client.frame(sessionEvent({ event: 'rated', sessionId: 's1', score: 4, remark: 'quick' }));
    client.frame(sessionEvent({ event: 'rated', sessionId: 'unknown', score: 1 }));
    expect(conversations.store.getState().list).toEqual([expect.objectContaining({ sessionId: 's1', rating: { score: 4, remark: 'quick' } })]);
  });
});

describe('a visitor who ended and came back: the new conversation at once, the ended one as past', () => {
  it('catches up the new conversation’s robot phase after what was held, and splits the thread at the end', async () => {
    const { client, conversations } = setup(async (q) => {
      if (q.afterSeq === 2) return { list: [sessionEvent({ event: 'created', sessionId: 's2' }, 8000), text('robot-2', 'v1', 'robot', 8100, 3)], hasMore: false };
      return { list: [text('old-1', 'v1', 'agent:alice', 1000, 1), text('old-2', 'agent:alice', 'v1', 2000, 2)], hasMore: false };
    });
    client.frame(snapshotFrame([{ sessionId: 's1', clientId: 'v1' }]));
    await vi.waitFor(() => expect(fps(client, 'v1')).toEqual(['old-1', 'old-2']));
    client.frame(sessionEvent({ event: 'ended', sessionId: 's1' }, 7000));
    client.frame(snapshotFrame([]));
    client.frame(snapshotFrame([{ sessionId: 's2', clientId: 'v1' }]));
    await vi.waitFor(() => expect(fps(client, 'v1')).toEqual(['old-1', 'old-2', 'robot-2']));
    expect(conversations.store.getState().list.map((c) => [c.sessionId, c.status])).toEqual([
      ['s1', 'ended'],
      ['s2', 'active'],
    ]);
    expect(conversations.window('s1')).toEqual({ until: 7000 });
    expect(conversations.window('s2')).toEqual({ after: 7000 });
    expect(conversations.window('nope')).toEqual({});
  });

  it('a conversation back under the same id (it left without an end) is open again', () => {
    const { client, conversations } = setup();
    client.frame(snapshotFrame([{ sessionId: 's1', clientId: 'v1' }]));
    client.frame(snapshotFrame([]));
    expect(conversations.store.getState().list[0]).toMatchObject({ status: 'ended' });
    client.frame(snapshotFrame([{ sessionId: 's1', clientId: 'v1' }]));
    expect(conversations.store.getState().list).toEqual([expect.objectContaining({ sessionId: 's1', status: 'active' })]);
    expect(conversations.store.getState().list[0]).not.toHaveProperty('endedAt');
  });
});

describe('disposed: no listener left, no page joins the list any more', () => {
  it('drops a page that arrives after the dispose', async () => {
    let answer: (page: MessagePage) => void = () => undefined;
    const { client, disposables } = setup(() => new Promise((resolve) => (answer = resolve)));
    client.frame(snapshotFrame([{ sessionId: 's1', clientId: 'v1' }]));
    disposables.dispose();
    expect(client.listenerTotal()).toBe(0);
    answer({ list: [text('late', 'v1', 'robot', 1)], hasMore: false });
    await flush();
    expect(client.messages.getSnapshot()).toEqual([]);
  });
});
