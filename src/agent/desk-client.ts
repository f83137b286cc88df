/**
 * What the desk's managers need from the agent's `ImClient`: a few events, `send`, the
 * message list, the agent history call and the connect data. Unit tests give them a fake one.
 * @module
 */
import type { EventEmitter } from 'eventemitter3';
import type { ImClientEvents, ConnectionState } from '../events.js';
import type { PermitApi } from '../http/permit-api.js';
import type { DeskApi } from './desk-api.js';
import type { MessageList } from '../messages/message-list.js';
import type { StoredMessage } from '../messages/types.js';
import type { SendInput } from '../outbox/sender.js';
import type { Disposables, Disposer } from '../timers.js';

/** The permit calls the desk makes: the agent history, and `postEnc` for its `agent/...` calls ({@link DeskApi}). */
export type DeskCall = 'findMsgForCus' | 'postEnc';

/** The desk's own calls (`agent/...`), as the canned, past, preview and context managers use them. */
export type DeskCalls = Pick<DeskApi, 'agentCannedList' | 'agentCannedAdd' | 'agentCannedUpdate' | 'agentCannedRemove' | 'agentPastList' | 'agentPastOpen' | 'agentQueuedTranscript' | 'agentVisitorContext' | 'agentCloseConversation'>;

/**
 * What the canned, past, preview and context managers need: the desk's calls.
 * @internal
 */
export interface DeskCallsHolder {
  /** The desk's calls. */
  readonly api: DeskCalls;
}

/** The client events the desk listens to. */
export type DeskEvent = 'socket message' | 'socket login' | 'state' | 'refusal';

/**
 * The part of an `ImClient` that the desk uses (an `ImClient` is one).
 * @internal
 */
export interface DeskClient {
  /** Adds an event listener (the client's event emitter). */
  on: EventEmitter<ImClientEvents>['on'];
  /** Removes an event listener. */
  off: EventEmitter<ImClientEvents>['off'];
  /** Emits a client event (the desk's catch-up tells its messages as `message`, `caughtUp: true`). */
  emit: EventEmitter<ImClientEvents>['emit'];
  /** Sends a message (see `ImClient.send`). */
  send(input: SendInput): StoredMessage;
  /** The client's message list: every conversation of the agent. */
  readonly messages: MessageList;
  /** The permit API; the desk uses the agent history call and the desk calls (`agent/...`). */
  readonly api: Pick<PermitApi, DeskCall>;
  /** The connection state. */
  readonly connectionState: ConnectionState;
  /** The connect data (`role: 'agent'`, account, password or token). */
  getConnectData(): Readonly<Record<string, unknown>>;
  /** Replaces the connect data (used from the next connect on). */
  setConnectData(data: Record<string, unknown>): void;
  /** Closes the socket without reconnecting. */
  disconnect(): void;
}

/**
 * Adds a client listener and registers its removal in `disposables`.
 * @returns the disposer (also run by `disposables.dispose()`)
 * @internal
 */
export function listen<E extends DeskEvent>(disposables: Disposables, client: DeskClient, event: E, listener: EventEmitter.EventListener<ImClientEvents, E>): Disposer {
  client.on(event, listener);
  return disposables.add(() => client.off(event, listener));
}
