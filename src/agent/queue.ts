/**
 * The desk's queue manager: the visitors waiting and the agent's open conversations, as the
 * server's type 310 snapshots tell them, and the accept call (type 311).
 * @module
 */
import { parseAgentQueue } from '../messages/content.js';
import { MessageType, type AgentSession, type QueueEntry } from '../messages/types.js';
import { createStore, type Store } from '../state/store.js';
import type { Disposables } from '../timers.js';
import { listen, type DeskClient } from './desk-client.js';

/** The desk's queue snapshot (`desk.queue.getSnapshot()`). */
export interface AgentDeskSnapshot {
  /** Visitors waiting, in queue order. */
  readonly queue: readonly QueueEntry[];
  /** The agent's open conversations. */
  readonly sessions: readonly AgentSession[];
  /** How many agents are online. */
  readonly online: number;
  /** False until the first snapshot arrived. */
  readonly received: boolean;
}

const EMPTY: AgentDeskSnapshot = Object.freeze({ queue: [], sessions: [], online: 0, received: false });

/** The queue and the open conversations of the last type 310 snapshot, and accept. */
export class DeskQueue {
  /** The last snapshot, for `useSyncExternalStore`. */
  readonly store: Store<AgentDeskSnapshot> = createStore<AgentDeskSnapshot>(EMPTY);

  /**
   * @param client - the agent's client
   * @param disposables - where the frame listener is registered
   * @internal the desk composes it
   */
  constructor(
    private readonly client: DeskClient,
    disposables: Disposables,
  ) {
    listen(disposables, client, 'socket message', ({ message }) => {
      if (message.type !== MessageType.AgentQueue) return;
      const parsed = parseAgentQueue(message.dataContent);
      if (parsed) this.store.setState({ ...parsed, received: true });
    });
  }

  /** The open conversation with `clientId`, if the last snapshot lists it. */
  session(clientId: string): AgentSession | undefined {
    return this.store.getState().sessions.find((s) => s.clientId === clientId);
  }

  /** Accepts a waiting visitor (type 311); its conversation opens when a snapshot lists it. */
  accept(clientId: string): void {
    this.client.send({ type: MessageType.AgentAccept, dataContent: JSON.stringify({ clientId }) });
  }
}
