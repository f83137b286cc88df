/**
 * The service state a tab knows as a session event, for a tab that joins later (the leader tab
 * sends it): part of the socket stack.
 * @module
 */
import { MessageType, type ChatMessage } from '../messages/types.js';
import type { SessionState } from '../session.js';

/** The server's name of each session status in a session event `state` (docs/protocol.md). */
const STATE_OF_STATUS: Readonly<Record<SessionState['status'], string>> = { robot: 'robot', queued: 'queued', agent: 'active', ended: 'ended' };

/**
 * A session event `state` (type 300) holding the service state a tab knows, for a tab that joins
 * later (it heard no welcome-time `state` event of its own). Not stored, not a chat row.
 * @internal
 */
export function serviceStateMessage(state: SessionState): ChatMessage {
  const event = {
    event: 'state',
    state: STATE_OF_STATUS[state.status],
    ...(state.sessionId ? { sessionId: state.sessionId } : {}),
    ...(state.position !== null ? { position: state.position } : {}),
    ...(state.busy ? { busy: true } : {}),
    ...(state.agent ? { agent: state.agent } : {}),
  };
  return { type: MessageType.SessionEvent, dataContent: JSON.stringify(event) };
}
