import { describe, expect, it } from 'vitest';
import { Disposables } from '../timers.js';
import { DeskStatus, parseDeskAgents } from './status.js';
import { FakeDeskClient, sessionEvent } from './test-utils.js';

function setup() {
  const client = new FakeDeskClient();
  const disposables = new Disposables();
  return { client, disposables, status: new DeskStatus(client, disposables) };
}

const agents = [
  { id: 'agent:alice', name: 'Alice', status: 'away', open: 2, capacity: 3 },
  { id: 'agent:bob', name: 'Bob', status: 'available', open: 1, capacity: 2 },
  { id: 'agent:carol', name: 'Carol', status: 'away', open: 0, capacity: 1 },
];

describe('the status manager', () => {
  it('starts available with nobody else; a snapshot gives this agent status, capacity, load and the others', () => {
    const { client, status } = setup();
    expect(status.store.getState()).toEqual({ status: 'available', capacity: 0, open: 0, others: [], notes: {}, merchants: [] });
    client.frame({ type: 310, dataContent: JSON.stringify({ queue: [], sessions: [], online: 3, agents }) });
    expect(status.store.getState()).toMatchObject({ status: 'away', capacity: 3, open: 2 });
    expect(status.store.getState().others.map((a) => a.id)).toEqual(['agent:bob', 'agent:carol']);
    expect(status.targets().map((a) => a.name)).toEqual(['Bob']);
  });

  it('knows this agent’s merchants; transfer targets are available, under capacity and of the conversation’s merchant', () => {
    const { client, status } = setup();
    const team = [
      { id: 'agent:bob', name: 'Bob', status: 'available', open: 1, capacity: 2, merchants: ['M1', 'M2'] },
      { id: 'agent:dan', name: 'Dan', status: 'available', open: 2, capacity: 2, merchants: ['M1'] },
      { id: 'agent:eve', name: 'Eve', status: 'available', open: 0, capacity: 2, merchants: ['M2'] },
      { id: 'agent:old', name: 'Old', status: 'available', open: 0, capacity: 1 },
    ];
    client.frame({ type: 310, dataContent: JSON.stringify({ queue: [], sessions: [], online: 4, agents: team, merchants: ['M1', 'M2'] }) });
    expect(status.store.getState().merchants).toEqual(['M1', 'M2']);
    expect(status.targets('M1').map((a) => a.name)).toEqual(['Bob', 'Old']);
    expect(status.targets('M2').map((a) => a.name)).toEqual(['Bob', 'Eve', 'Old']);
    expect(status.targets().map((a) => a.name)).toEqual(['Bob', 'Eve', 'Old']);
  });

  it('keeps its state on a snapshot without agents or a malformed one', () => {
    const { client, status } = setup();
    client.frame({ type: 310, dataContent: JSON.stringify({ queue: [], sessions: [], online: 1 }) });
    client.frame({ type: 310, dataContent: 'not json' });
    expect(status.store.getState().others).toEqual([]);
  });

  it('setStatus sends type 313 and shows the status at once; an unknown status throws', () => {
    const { client, status } = setup();
    status.setStatus('away');
    expect(client.sent).toEqual([{ type: 313, dataContent: JSON.stringify({ status: 'away' }) }]);
    expect(status.store.getState().status).toBe('away');
    expect(() => status.setStatus('busy' as 'away')).toThrow(TypeError);
    expect(client.sent).toHaveLength(1);
  });

  it('sends the chosen status again after a login, and nothing when none was chosen', () => {
    const { client, status } = setup();
    client.emit('socket login', { reconnected: false });
    expect(client.sent).toEqual([]);
    status.setStatus('away');
    client.emit('socket login', { reconnected: true });
    expect(client.sent.map((s) => s.dataContent)).toEqual([JSON.stringify({ status: 'away' }), JSON.stringify({ status: 'away' })]);
  });

  it('keeps the note of a conversation transferred to this agent', () => {
    const { client, status } = setup();
    client.frame(sessionEvent({ event: 'transferred', sessionId: 's1', clientId: 'v1', from: { id: 'agent:bob', name: 'Bob' }, note: 'VIP' }));
    client.frame(sessionEvent({ event: 'transferred', sessionId: 's2', clientId: 'v2', from: { id: 'agent:bob', name: 'Bob' } }));
    client.frame(sessionEvent({ event: 'agent-joined', sessionId: 's3', clientId: 'v3' }));
    expect(status.store.getState().notes).toEqual({ v1: { from: { id: 'agent:bob', name: 'Bob' }, note: 'VIP' }, v2: { from: { id: 'agent:bob', name: 'Bob' } } });
  });

  it('stops listening when disposed', () => {
    const { client, disposables, status } = setup();
    disposables.dispose();
    client.frame({ type: 310, dataContent: JSON.stringify({ agents }) });
    expect(status.store.getState().others).toEqual([]);
    expect(client.listenerTotal()).toBe(0);
  });
});

describe('parseDeskAgents', () => {
  it('keeps well-formed entries only', () => {
    expect(parseDeskAgents(JSON.stringify({ agents: [{ id: 'a', status: 'available' }, { id: 'b', status: 'busy' }, null, { status: 'away' }] }))).toEqual([
      { id: 'a', name: 'a', status: 'available', open: 0, capacity: 0, merchants: [] },
    ]);
    expect(parseDeskAgents('[]')).toBeUndefined();
    expect(parseDeskAgents(undefined)).toBeUndefined();
  });
});
