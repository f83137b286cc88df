/**
 * Session events (type 300) folded into the session state: used by the inbound router, which
 * loads with the socket code, so it is apart from the store that start-up creates.
 * @module
 */
import type { SessionEvent } from './messages/types.js';
import { INITIAL_SESSION, type SessionState, type SessionStatus } from './session.js';

/**
 * Folds one session event into the state (pure).
 * @param state - the current state
 * @param e - the parsed type 300 content
 */
export function reduceSessionEvent(state: SessionState, e: SessionEvent): Partial<SessionState> {
  const sessionId = typeof e.sessionId === 'string' ? e.sessionId : state.sessionId;
  switch (e.event) {
    case 'created':
      return { ...INITIAL_SESSION, suggestions: state.suggestions, sessionId };
    case 'queued':
      // live and unordered across nodes: one read before another node's assignment may come after its
      // `agent-joined` (or the end); a session does not go back from served to queued without `agent-left`
      if (sessionId === state.sessionId && (state.status === 'agent' || state.status === 'ended')) return {};
      return {
        status: 'queued',
        sessionId,
        position: typeof e.position === 'number' ? e.position : null,
        busy: e.busy === true,
        etaMs: typeof e.etaMs === 'number' ? e.etaMs : null,
      };
    case 'agent-joined':
      return { status: 'agent', sessionId, position: null, busy: false, agent: e.agent ?? null };
    case 'agent-left':
      // the agent logged out or stayed away: the robot serves again, and 301 queues for another
      return { status: 'robot', sessionId, position: null, busy: false, agent: null };
    case 'ended':
      return { status: 'ended', sessionId, position: null, busy: false };
    case 'rate-invite':
      return { rateInvited: true, sessionId };
    case 'state':
      return restoredState(e, sessionId);
    default:
      return {};
  }
}

/** The server's service states (session event `state`) and the status each one restores. */
const RESTORED_STATUS: Readonly<Record<string, SessionStatus>> = Object.freeze({ robot: 'robot', queued: 'queued', active: 'agent', ended: 'ended' });

/**
 * The state a session event `state` restores after a reload or in a new tab (docs/protocol.md):
 * status, queue position, busy flag and the serving agent; an unknown state changes nothing.
 */
function restoredState(e: SessionEvent, sessionId: string | null): Partial<SessionState> {
  const status = typeof e.state === 'string' ? RESTORED_STATUS[e.state] : undefined;
  if (!status) return {};
  return {
    status,
    sessionId,
    position: status === 'queued' && typeof e.position === 'number' ? e.position : null,
    busy: status === 'queued' && e.busy === true,
    etaMs: status === 'queued' && typeof e.etaMs === 'number' ? e.etaMs : null,
    agent: status === 'agent' ? (e.agent ?? null) : null,
  };
}
