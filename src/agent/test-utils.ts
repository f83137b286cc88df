/**
 * A fake agent client for the desk's unit tests: a real event emitter and message list, a
 * scripted agent history call and a recorded `send`.
 * @module
 */
import { EventEmitter } from 'eventemitter3';
import { vi } from 'vitest';
import type { ConnectionState, ImClientEvents } from '../events.js';
import type { CannedReply, CannedReplyInput, CannedReplyUpdate, PastConversation, PastQuery, QueuedQuery, Transcript } from '../http/desk-types.js';
import { ApiError } from '../http/errors.js';
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
  /** The canned replies the fake server keeps. */
  readonly cannedReplies: CannedReply[] = [];
  /** The conversations closed with `agent/closeConversation`. */
  readonly closedOnServer: string[] = [];
  /** Whether `agent/closeConversation` fails. */
  closeRefused = false;
  /** The ended conversations the fake server lists (newest first) and their transcripts. */
  past: PastConversation[] = [];
  readonly api = {
    findMsgForCus: vi.fn((q: HistoryQuery) => this.pages(q)),
    /** `agent/cannedList` -> `agentCannedList` below, as the server answers them. */
    postEnc: vi.fn(async (call: string, payload: unknown): Promise<never> => {
      const name = `agent${call.charAt(6).toUpperCase()}${call.slice(7)}`;
      const handler = (this.api as unknown as Record<string, ((q: unknown) => Promise<never>) | undefined>)[name];
      if (!call.startsWith('agent/') || !handler) throw new ApiError({ code: 1003, message: `no desk call ${call}` });
      return handler(payload);
    }),
    agentCannedList: vi.fn(async (q: { mchId: string }) => this.cannedReplies.filter((r) => r.mchId === q.mchId)),
    agentCannedAdd: vi.fn(async (q: CannedReplyInput) => {
      if (this.cannedReplies.some((r) => r.mchId === q.mchId && r.shortcut === q.shortcut)) {
        throw new ApiError({ code: 1001, message: `the shortcut /${q.shortcut} is taken` });
      }
      const reply = { ...q, id: `c${this.cannedReplies.length + 1}`, createdAt: 1 };
      this.cannedReplies.push(reply);
      return reply;
    }),
    agentCannedUpdate: vi.fn(async (q: CannedReplyUpdate) => {
      const i = this.cannedReplies.findIndex((r) => r.mchId === q.mchId && r.id === q.id);
      if (i < 0) throw new ApiError({ code: 1003, message: 'no such canned reply' });
      if (this.cannedReplies.some((r) => r.mchId === q.mchId && r.shortcut === q.shortcut && r.id !== q.id)) {
        throw new ApiError({ code: 1001, message: `the shortcut /${q.shortcut} is taken` });
      }
      const reply = { ...this.cannedReplies[i]!, title: q.title, text: q.text, shortcut: q.shortcut };
      this.cannedReplies[i] = reply;
      return reply;
    }),
    agentCannedRemove: vi.fn(async (q: { mchId: string; id: string }) => {
      const i = this.cannedReplies.findIndex((r) => r.mchId === q.mchId && r.id === q.id);
      if (i < 0) throw new ApiError({ code: 1003, message: 'no such canned reply' });
      this.cannedReplies.splice(i, 1);
      return true;
    }),
    agentPastList: vi.fn(async (q: PastQuery) => {
      const found = this.past.filter((p) => (q.text === undefined || p.remark?.includes(q.text) === true) && (q.visitor === undefined || p.clientId === q.visitor));
      const offset = q.offset ?? 0;
      const size = q.size ?? 20;
      return { list: found.slice(offset, offset + size), hasMore: found.length > offset + size };
    }),
    agentPastOpen: vi.fn(async (q: { sessionId: string }): Promise<Transcript> => {
      const session = this.past.find((p) => p.sessionId === q.sessionId);
      if (!session) throw new ApiError({ code: 1003, message: 'no such ended conversation' });
      return { session, messages: [{ type: 100, dataContent: `hello from ${session.clientId}` }] };
    }),
    agentVisitorContext: vi.fn(async (q: QueuedQuery) => ({
      ...q,
      name: `name ${q.clientId}`,
      language: 'en',
      firstSeen: 1,
      lastSeen: 2,
      merchantName: 'Shop',
      platformName: 'Web',
      pastConversations: 3,
      lastRating: 5,
      entry: { cpay: 'ORD-1' },
      arrivedAt: 3,
      deposit: { userAccount: 'ann', userMchId: 'U1', mchOrderNo: 'ORD-1', amount: '10.00', status: 'success' },
    })),
    agentCloseConversation: vi.fn(async (q: { sessionId: string }) => {
      if (this.closeRefused) throw new ApiError({ code: 4003, message: 'Forbidden' });
      this.closedOnServer.push(q.sessionId);
      return true;
    }),
    agentQueuedTranscript: vi.fn(async (q: QueuedQuery): Promise<Transcript> => ({
      session: { sessionId: 'q', clientId: q.clientId, visitorName: '', mchId: q.mchId, platformId: q.platformId, agentId: null, createdAt: 1, endedAt: null, score: null, remark: null },
      messages: [{ type: 100, dataContent: 'robot, help' }],
    })),
  };
  readonly disconnect = vi.fn(() => {
    this.setState('closed');
  });

  send(input: SendInput): StoredMessage {
    this.sent.push(input);
    return { ...input, type: input.type ?? 100, fp: `fp-${this.sent.length}`, sendState: this.connectionState === 'open' ? 'sent' : 'failed' } as StoredMessage;
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
export function snapshotFrame(
  sessions: { sessionId: string; clientId: string; name?: string; since?: number }[],
  queue: { clientId: string; name?: string }[] = [],
  ended?: Record<string, unknown>[],
  transferred?: Record<string, unknown>[],
): ChatMessage {
  return {
    type: 310,
    dataContent: JSON.stringify({
      queue: queue.map((q, i) => ({ name: q.clientId, since: 1, position: i + 1, mchId: 'M1', platformId: 'P1', ...q })),
      sessions: sessions.map((s) => ({ name: s.clientId, since: 1, mchId: 'M1', platformId: 'P1', ...s })),
      online: 1,
      ...(ended === undefined ? {} : { ended: ended.map((e) => ({ name: e['clientId'], since: 1, mchId: 'M1', platformId: 'P1', ...e })) }),
      ...(transferred === undefined ? {} : { transferred: transferred.map((e) => ({ name: e['clientId'], since: 1, mchId: 'M1', platformId: 'P1', ...e })) }),
    }),
  };
}

/** A type 300 session event frame. */
export function sessionEvent(content: Record<string, unknown>, createTime?: number): ChatMessage {
  return { type: 300, from: 'system', dataContent: JSON.stringify(content), ...(createTime === undefined ? {} : { createTime }) };
}
