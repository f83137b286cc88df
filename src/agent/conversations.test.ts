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
  const conversations = new DeskConversations(client, { disposables, timers: { now: () => now }, sessions: queue.store, pageSize: 50, maxCatchUpPages: 5, calls: client });
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

describe('the ended conversations the server keeps come back after a reload (snapshot `ended`)', () => {
  const endedV1 = { sessionId: 's1', clientId: 'v1', since: 100, endedAt: 2000, endedBy: 'visitor', score: 4, remark: 'quick' };

  it('a fresh desk shows them read-only with who ended and the rating, in the order they started, histories loaded', async () => {
    const { client, conversations } = setup(async (q) => ({ list: [text(`m-${q.clientId}`, q.clientId, 'agent:alice', 1500)], hasMore: false }));
    client.frame(snapshotFrame([{ sessionId: 's3', clientId: 'v3', since: 300 }], [], [{ sessionId: 's2', clientId: 'v2', since: 200, endedAt: 2500, endedBy: 'agent', score: null }, endedV1, { sessionId: 'bad' }]));
    expect(conversations.store.getState().list).toEqual([
      expect.objectContaining({ sessionId: 's1', clientId: 'v1', status: 'ended', endedBy: 'visitor', endedAt: 2000, rating: { score: 4, remark: 'quick' } }),
      expect.objectContaining({ sessionId: 's2', status: 'ended', endedBy: 'agent', endedAt: 2500 }),
      expect.objectContaining({ sessionId: 's3', status: 'active' }),
    ]);
    expect(conversations.store.getState().list[1]).not.toHaveProperty('rating');
    await vi.waitFor(() => expect(fps(client, 'v1')).toEqual(['m-v1']));
    expect(fps(client, 'v2')).toEqual(['m-v2']);
    // the same snapshot again changes nothing
    const before = conversations.store.getState().list;
    client.frame(snapshotFrame([{ sessionId: 's3', clientId: 'v3', since: 300 }], [], [endedV1]));
    expect(conversations.store.getState().list).toEqual(before);
    expect(conversations.store.getState().list[0]).toBe(before[0]);
  });

  it('the server’s entry completes one the desk saw end (who ended, rating); a server without `ended` changes nothing', () => {
    const { client, conversations } = setup();
    client.frame(snapshotFrame([{ sessionId: 's1', clientId: 'v1' }]));
    client.frame(snapshotFrame([]));
    expect(conversations.store.getState().list).toEqual([expect.objectContaining({ sessionId: 's1', status: 'ended', endedAt: 50_000 })]);
    client.frame(snapshotFrame([], [], [endedV1]));
    expect(conversations.store.getState().list).toEqual([expect.objectContaining({ sessionId: 's1', endedBy: 'visitor', endedAt: 2000, rating: { score: 4, remark: 'quick' } })]);
  });

  it('closing tells the server; a snapshot built before does not bring it back; a failed call answers false', async () => {
    const { client, conversations } = setup();
    client.frame(snapshotFrame([{ sessionId: 's9', clientId: 'v9' }], [], [endedV1, { sessionId: 's2', clientId: 'v2', endedAt: 3000 }]));
    expect(await conversations.close('s9')).toBe(false); // open: stays
    expect(await conversations.close('s1')).toBe(true);
    expect(client.closedOnServer).toEqual(['s1']);
    client.frame(snapshotFrame([{ sessionId: 's9', clientId: 'v9' }], [], [endedV1, { sessionId: 's2', clientId: 'v2', endedAt: 3000 }]));
    expect(conversations.store.getState().list.map((c) => c.sessionId)).toEqual(['s9', 's2']);
    client.closeRefused = true;
    expect(await conversations.close('s2')).toBe(false);
    expect(conversations.store.getState().list.map((c) => c.sessionId)).toEqual(['s9']);
  });
});

describe('a conversation transferred to another agent stays, read-only, as transferred to that agent', () => {
  it('transferred-away marks it with the new agent and time; the next snapshot leaves it so; close takes it off', async () => {
    const { client, conversations } = setup();
    client.frame(snapshotFrame([{ sessionId: 's1', clientId: 'v1' }, { sessionId: 's2', clientId: 'v2' }]));
    client.frame(sessionEvent({ event: 'transferred-away', sessionId: 's1', clientId: 'v1', to: { id: 'agent:bob', name: 'Bob' } }, 6000));
    client.frame(snapshotFrame([{ sessionId: 's2', clientId: 'v2' }]));
    expect(conversations.store.getState().list[0]).toEqual(expect.objectContaining({ sessionId: 's1', status: 'transferred', transferredTo: { id: 'agent:bob', name: 'Bob' }, endedAt: 6000 }));
    expect(conversations.store.getState().list[0]).not.toHaveProperty('endedBy');
    expect(await conversations.close('s1')).toBe(true);
    expect(client.closedOnServer).toEqual(['s1']); // the server lists it no more after a reload
    expect(conversations.store.getState().list.map((c) => c.sessionId)).toEqual(['s2']);
  });

  it('comes back after a reload as transferred (snapshot `transferred`), not ended; malformed entries are left out; a closed one stays closed', async () => {
    const { client, conversations } = setup();
    const movedV1 = { sessionId: 's1', clientId: 'v1', since: 100, transferredAt: 2000, to: { id: 'agent:bob', name: 'Bob' } };
    client.frame(snapshotFrame([{ sessionId: 's3', clientId: 'v3', since: 300 }], [], [], [movedV1, { sessionId: 'bad', clientId: 'v4' }, { sessionId: 's5', clientId: 'v5', transferredAt: 1, to: {} }]));
    expect(conversations.store.getState().list).toEqual([
      expect.objectContaining({ sessionId: 's1', clientId: 'v1', status: 'transferred', transferredTo: { id: 'agent:bob', name: 'Bob' }, endedAt: 2000 }),
      expect.objectContaining({ sessionId: 's3', status: 'active' }),
    ]);
    expect(conversations.store.getState().list[0]).not.toHaveProperty('endedBy');
    await flush();
    expect(client.api.findMsgForCus).not.toHaveBeenCalledWith(expect.objectContaining({ clientId: 'v1' })); // access went with the transfer (4003)
    expect(conversations.window('s1')).toEqual({ until: 2000 });
    expect(await conversations.close('s1')).toBe(true);
    client.frame(snapshotFrame([{ sessionId: 's3', clientId: 'v3', since: 300 }], [], [], [movedV1]));
    expect(conversations.store.getState().list.map((c) => c.sessionId)).toEqual(['s3']);
  });

  it('a snapshot that lists it transferred turns the desk’s own guess (ended, with no one who ended it) into transferred', () => {
    const { client, conversations } = setup();
    client.frame(snapshotFrame([{ sessionId: 's1', clientId: 'v1' }]));
    client.frame(snapshotFrame([], [], [], [{ sessionId: 's1', clientId: 'v1', transferredAt: 2000, to: { id: 'agent:bob', name: 'Bob' } }]));
    expect(conversations.store.getState().list).toEqual([expect.objectContaining({ sessionId: 's1', status: 'transferred', transferredTo: { id: 'agent:bob', name: 'Bob' }, endedAt: 2000 })]);
  });

  it('a snapshot that came first (another node) marks it ended; the event then makes it transferred; transferred back it is open again', () => {
    const { client, conversations } = setup();
    client.frame(snapshotFrame([{ sessionId: 's1', clientId: 'v1' }]));
    client.frame(snapshotFrame([]));
    client.frame(sessionEvent({ event: 'transferred-away', sessionId: 's1', clientId: 'v1', to: { id: 'agent:bob', name: 'Bob' } }, 6000));
    expect(conversations.store.getState().list).toEqual([expect.objectContaining({ status: 'transferred', transferredTo: { id: 'agent:bob', name: 'Bob' } })]);
    client.frame(snapshotFrame([{ sessionId: 's1', clientId: 'v1' }]));
    expect(conversations.store.getState().list).toEqual([expect.objectContaining({ sessionId: 's1', status: 'active' })]);
    expect(conversations.store.getState().list[0]).not.toHaveProperty('transferredTo');
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
