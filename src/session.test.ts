import { describe, expect, it } from 'vitest';
import { INITIAL_SESSION, type SessionState } from './session.js';
import { reduceSessionEvent } from './session-events.js';

const fresh = (): SessionState => ({ ...INITIAL_SESSION });
const agent = { id: 'agent:alice', name: 'Alice', avatar: '/a.png' };

describe('session event `state` (after the welcome) restores the service state after a reload', () => {
  it('active: status agent with the agent, no queue position', () => {
    expect(reduceSessionEvent(fresh(), { event: 'state', state: 'active', sessionId: 's1', agent })).toEqual({
      status: 'agent',
      sessionId: 's1',
      position: null,
      busy: false,
      etaMs: null,
      agent,
    });
  });

  it('queued: the estimated wait (etaMs) too, null when the server has none', () => {
    expect(reduceSessionEvent(fresh(), { event: 'state', state: 'queued', sessionId: 's1', position: 2, busy: false, etaMs: 90_000 })).toMatchObject({ etaMs: 90_000 });
    expect(reduceSessionEvent(fresh(), { event: 'queued', position: 2, busy: false, etaMs: null })).toMatchObject({ etaMs: null });
    expect(reduceSessionEvent(fresh(), { event: 'queued', position: 1, busy: false, etaMs: 30_000 })).toMatchObject({ etaMs: 30_000 });
  });

  it('queued: status queued with the position and the busy flag', () => {
    expect(reduceSessionEvent(fresh(), { event: 'state', state: 'queued', sessionId: 's1', position: 3, busy: true })).toMatchObject({
      status: 'queued',
      position: 3,
      busy: true,
      agent: null,
    });
  });

  it('robot and ended clear what an earlier state left', () => {
    const serving: SessionState = { ...fresh(), status: 'agent', agent, sessionId: 's1' };
    expect(reduceSessionEvent(serving, { event: 'state', state: 'ended', sessionId: 's1' })).toMatchObject({ status: 'ended', agent: null });
    expect(reduceSessionEvent(serving, { event: 'state', state: 'robot', sessionId: 's2' })).toMatchObject({ status: 'robot', agent: null, sessionId: 's2' });
  });

  it('an unknown state changes nothing', () => {
    expect(reduceSessionEvent(fresh(), { event: 'state', state: 'paused' })).toEqual({});
    expect(reduceSessionEvent(fresh(), { event: 'state' })).toEqual({});
  });
});

describe('a live `queued` of a session already served or ended is stale (it was read before the assignment on another node)', () => {
  const serving = (): SessionState => ({ ...fresh(), status: 'agent', agent, sessionId: 's1' });

  it('after `agent-joined`, a `queued` of the same session changes nothing', () => {
    expect(reduceSessionEvent(serving(), { event: 'queued', sessionId: 's1', position: 3, busy: false })).toEqual({});
    expect(reduceSessionEvent({ ...serving(), status: 'ended' }, { event: 'queued', sessionId: 's1', position: 1 })).toEqual({});
  });

  it('a `queued` after `agent-left` (the robot serves again) or of another session applies', () => {
    const left = { ...serving(), ...reduceSessionEvent(serving(), { event: 'agent-left', sessionId: 's1' }) };
    expect(reduceSessionEvent(left, { event: 'queued', sessionId: 's1', position: 2 })).toMatchObject({ status: 'queued', position: 2 });
    expect(reduceSessionEvent(serving(), { event: 'queued', sessionId: 's2', position: 1 })).toMatchObject({ status: 'queued', sessionId: 's2' });
  });

  it('the restored `state` still wins (a reconnect after a missed `agent-left`)', () => {
    expect(reduceSessionEvent(serving(), { event: 'state', state: 'queued', sessionId: 's1', position: 1 })).toMatchObject({ status: 'queued' });
  });
});
