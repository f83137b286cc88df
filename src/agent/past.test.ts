import { describe, expect, it } from 'vitest';
import type { PastConversation } from '../http/desk-types.js';
import { AgentDesk } from './agent-desk.js';
import { FakeDeskClient } from './test-utils.js';

const ended = (n: number, clientId = `v${n}`): PastConversation => ({
  sessionId: `s${n}`,
  clientId,
  visitorName: `Visitor ${n}`,
  mchId: 'M1',
  platformId: 'P1',
  agentId: 'agent:alice',
  createdAt: n,
  endedAt: 100 + n,
  score: null,
  remark: n % 2 === 0 ? 'even' : 'odd',
});

describe('DeskPast', () => {
  it('pages through ended conversations (next, previous) and searches by text and visitor from page 0', async () => {
    const client = new FakeDeskClient();
    client.past = [5, 4, 3, 2, 1].map((n) => ended(n));
    const desk = new AgentDesk(client, { pastPageSize: 2 });
    expect(desk.past.store.getState()).toMatchObject({ loaded: false, list: [] });
    await desk.past.search();
    expect(desk.past.store.getState()).toMatchObject({ page: 0, hasMore: true, loaded: true, loading: false });
    expect(desk.past.store.getState().list.map((p) => p.sessionId)).toEqual(['s5', 's4']);
    await desk.past.next();
    await desk.past.next();
    expect(desk.past.store.getState()).toMatchObject({ page: 2, hasMore: false });
    expect(desk.past.store.getState().list.map((p) => p.sessionId)).toEqual(['s1']);
    await desk.past.next();
    expect(desk.past.store.getState().page).toBe(2);
    await desk.past.previous();
    expect(desk.past.store.getState().list.map((p) => p.sessionId)).toEqual(['s3', 's2']);
    await desk.past.search({ text: ' even ' });
    expect(desk.past.store.getState()).toMatchObject({ page: 0, search: { text: 'even', visitor: '' } });
    expect(desk.past.store.getState().list.map((p) => p.sessionId)).toEqual(['s4', 's2']);
    expect(client.api.agentPastList).toHaveBeenLastCalledWith({ text: 'even', offset: 0, size: 2 });
    await desk.past.search({ visitor: 'v3' });
    expect(desk.past.store.getState().list.map((p) => p.sessionId)).toEqual(['s3']);
  });

  it('opens one read-only into the store and closes it; a failure is kept and rejects', async () => {
    const client = new FakeDeskClient();
    client.past = [ended(1)];
    const desk = new AgentDesk(client);
    await desk.past.open('s1');
    expect(desk.past.store.getState().opened).toMatchObject({ session: { sessionId: 's1' }, messages: [{ dataContent: 'hello from v1' }] });
    desk.past.close();
    expect(desk.past.store.getState().opened).toBeNull();
    await expect(desk.past.open('nope')).rejects.toThrow('no such ended conversation');
    expect(desk.past.store.getState().error).toBe('no such ended conversation');
  });

  it('reads a queued visitor’s transcript', async () => {
    const desk = new AgentDesk(new FakeDeskClient());
    const t = await desk.past.queued({ clientId: 'v9', mchId: 'M1', platformId: 'P1' });
    expect(t.messages.map((m) => m.dataContent)).toEqual(['robot, help']);
  });
});
