import { describe, expect, it } from 'vitest';
import { INITIAL_SESSION, reduceSessionEvent, type SessionState } from './session.js';

const fresh = (): SessionState => ({ ...INITIAL_SESSION });
const agent = { id: 'agent:alice', name: 'Alice', avatar: '/a.png' };

describe('session event `state` (after the welcome) restores the service state after a reload', () => {
  it('active: status agent with the agent, no queue position', () => {
    expect(reduceSessionEvent(fresh(), { event: 'state', state: 'active', sessionId: 's1', agent })).toEqual({
      status: 'agent',
      sessionId: 's1',
      position: null,
      busy: false,
      agent,
    });
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
