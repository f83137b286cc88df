/**
 * A fake agent client for the desk's unit tests: a real event emitter and message list, a
 * scripted agent history call and a recorded `send`.
 * @module
 */
import { EventEmitter } from 'eventemitter3';
import { vi } from 'vitest';
import type { ConnectionState, ImClientEvents } from '../events.js';
import type { HistoryQuery, MessagePage } from '../http/types.js';
import { MessageList } from '../messages/message-list.js';
import type { ChatMessage, StoredMessage } from '../messages/types.js';
import type { SendInput } from '../outbox/sender.js';
import type { DeskClient } from './desk-client.js';

/** A fake {@link DeskClient} whose frames and history pages the test drives. @internal */
export class FakeDeskClient extends EventEmitter<ImClientEvents> implements DeskClient {
  readonly messages = new MessageList();
  readonly sent: SendInput[] = [];
  connectionState: ConnectionState = 'open';
  connectData: Record<string, unknown> = { role: 'agent', account: 'alice', password: 'pw' };
  /** What the agent history call answers (default: an empty last page). */
  pages: (q: HistoryQuery) => Promise<MessagePage> = async () => ({ list: [], hasMore: false });
  readonly api = { findMsgForCus: vi.fn((q: HistoryQuery) => this.pages(q)) };
  readonly disconnect = vi.fn(() => {
    this.setState('closed');
  });

  send(input: SendInput): StoredMessage {
    this.sent.push(input);
    return { ...input, type: input.type ?? 100, sendState: this.connectionState === 'open' ? 'sent' : 'failed' } as StoredMessage;
  }

  getConnectData(): Readonly<Record<string, unknown>> {
    return this.connectData;
  }

  setConnectData(data: Record<string, unknown>): void {
    this.connectData = { ...data };
  }

  /** A frame arrives on the socket. */
  frame(message: ChatMessage): void {
    this.emit('socket message', { message, encrypted: false });
  }

  /** The connection state changes. */
  setState(newState: ConnectionState): void {
    const oldState = this.connectionState;
    this.connectionState = newState;
    this.emit('state', { newState, oldState });
  }

  /** How many listeners the desk left on the client. */
  listenerTotal(): number {
    return this.eventNames().reduce((n, e) => n + this.listenerCount(e), 0);
  }
}

/** A type 310 snapshot frame. */
export function snapshotFrame(sessions: { sessionId: string; clientId: string; name?: string }[], queue: { clientId: string; name?: string }[] = []): ChatMessage {
  return {
    type: 310,
    dataContent: JSON.stringify({
      queue: queue.map((q, i) => ({ name: q.clientId, since: 1, position: i + 1, mchId: 'M1', platformId: 'P1', ...q })),
      sessions: sessions.map((s) => ({ name: s.clientId, since: 1, mchId: 'M1', platformId: 'P1', ...s })),
      online: 1,
    }),
  };
}

/** A type 300 session event frame. */
export function sessionEvent(content: Record<string, unknown>, createTime?: number): ChatMessage {
  return { type: 300, from: 'system', dataContent: JSON.stringify(content), ...(createTime === undefined ? {} : { createTime }) };
}
