/**
 * The conversation session as the server reports it: suggested questions (type 201) and session
 * events (type 300), folded into one small store (the folding is in `session-events.ts`, which
 * loads with the socket code).
 * @module
 */
import type { AgentInfo, SuggestedQuestion } from './messages/types.js';
import { createStore, type Store } from './state/store.js';

/** Where the visitor's conversation stands. */
export type SessionStatus = 'robot' | 'queued' | 'agent' | 'ended';

/** The session state held by the client. */
export interface SessionState {
  /** `robot` until a transfer, `queued` while waiting, `agent` once an agent joined, `ended` at the end. */
  status: SessionStatus;
  /** The server's id of the current conversation. */
  sessionId: string | null;
  /** 1-based queue position while queued. */
  position: number | null;
  /** True while queued with no agent online: the visitor may leave a message. */
  busy: boolean;
  /** The server's estimated wait in ms while queued (docs/protocol.md `etaMs`); null when it has none. */
  etaMs: number | null;
  /** The agent serving the visitor. */
  agent: AgentInfo | null;
  /** True once the rating invite arrived for the current conversation. */
  rateInvited: boolean;
  /** The latest suggested questions. */
  suggestions: readonly SuggestedQuestion[];
}

/** The state of a fresh session. */
export const INITIAL_SESSION: Readonly<SessionState> = Object.freeze({
  status: 'robot',
  sessionId: null,
  position: null,
  busy: false,
  etaMs: null,
  agent: null,
  rateInvited: false,
  suggestions: Object.freeze([]) as readonly SuggestedQuestion[],
});

/** Creates the session store. @internal */
export function createSessionStore(): Store<SessionState> {
  return createStore<SessionState>({ ...INITIAL_SESSION });
}
