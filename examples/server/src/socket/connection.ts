/**
 * One admitted connection: its peer (how the chat layer sends to it), its ordered work queue with
 * backpressure, and the decoding and dispatch of its frames (heartbeat answered at once, agent
 * logout, everything else to messaging). The socket is injected, so the queue and the dispatch
 * are tested without a server.
 * @module
 */

import { refuse } from '../chat/context.js';
import type { Peer } from '../chat/hub.js';
import type { Hub } from '../chat/hub.js';
import type { ClientFrame, Messaging } from '../chat/messaging.js';
import { T, type WireMessage } from '../chat/wire.js';
import type { AgentPresence } from '../agents/presence.js';
import type { AgentTokens } from '../agents/session-tokens.js';
import type { Identity } from '../services/identity.js';
import { LOGGED_OUT_CLOSE, SERVER_ERROR_CLOSE } from './close-codes.js';
import { decodeFrame, encodeFrame } from './codec.js';
import type { ConnectIdentity } from './connect-check.js';
import { FrameCipher } from './frame-cipher.js';
import type { WriteBatch } from './write-batch.js';

/**
 * Backpressure per connection: with this many frames waiting for the store, the server stops
 * reading the socket (TCP then slows the sender down) until {@link RESUME_PENDING_FRAMES} are left.
 */
export const MAX_PENDING_FRAMES = 256;
/** See {@link MAX_PENDING_FRAMES}. */
export const RESUME_PENDING_FRAMES = 64;

/** The `readyState` of an open socket (as in the `ws` library and the browser). */
export const OPEN = 1;

/** A frame as the `ws` library hands it over. */
export type RawFrame = Buffer | ArrayBuffer | Buffer[];

/** What a connection needs of its socket (a `ws` WebSocket has it all). */
export interface ConnectionSocket {
  /** `1` while open. */
  readonly readyState: number;
  /** Whether reading is paused. */
  readonly isPaused: boolean;
  /** Stops reading the socket. */
  pause(): void;
  /** Reads the socket again. */
  resume(): void;
  /** Sends one text frame. */
  send(data: string): void;
  /** Closes with a code and reason. */
  close(code: number, reason: string): void;
  /** Drops the socket at once. */
  terminate(): void;
}

/** What a connection needs. */
export interface ConnectionDeps {
  /** The socket. */
  socket: ConnectionSocket;
  /** Who connected. */
  identity: ConnectIdentity;
  /** The AES-ECB user key when the switch is on, else null (protocol §4). */
  userKey: Buffer | null;
  /** The agent's session token of this connection, if any (revoked by its logout). */
  agentToken: string | undefined;
  /** Frame handling. */
  messaging: Pick<Messaging, 'handle'>;
  /** Agent session tokens (a logout revokes one; a logout everywhere, all of the account's). */
  agentTokens: Pick<AgentTokens, 'revoke' | 'revokeAll'>;
  /** The hub: a logout everywhere tells and closes the agent's other sockets, on every node. */
  hub: Pick<Hub, 'sendTo' | 'disconnect'>;
  /** Agent presence (a logout releases the agent's visitors at once). */
  agentPresence: Pick<AgentPresence, 'loggedOut'>;
  /** Reports unexpected errors (never thrown to the client). */
  onError: (error: unknown) => void;
  /** The clock; `Date.now` by default. */
  now?: () => number;
  /** Batches the socket's writes of one event-loop turn into one system call (absent: each frame is written at once). */
  writes?: Pick<WriteBatch, 'hold'>;
  /** Key sessions: an open socket keeps its own alive (absent: it does not). */
  keySessions?: Pick<Identity, 'keep' | 'keepEvery'>;
}

/** The text of a frame, whatever form the `ws` library handed it over in. */
export function frameText(data: RawFrame): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

/** The size of a frame in bytes. */
export function frameBytes(data: RawFrame): number {
  if (Array.isArray(data)) return data.reduce((sum, part) => sum + part.length, 0);
  return data.byteLength;
}

/**
 * The chat layer's view of a socket: sends encode for this connection and never throw; with
 * `writes`, the frames of one event-loop turn leave in one system call.
 */
export function socketPeer(
  socket: ConnectionSocket,
  identity: ConnectIdentity,
  cipher: FrameCipher | null,
  agentToken: string | undefined,
  onError: (error: unknown) => void,
  writes?: Pick<WriteBatch, 'hold'>,
): Peer {
  return {
    userId: identity.userId,
    connectId: identity.connectId,
    role: identity.role,
    name: identity.name,
    avatar: identity.avatar,
    mchId: identity.mchId,
    platformId: identity.platformId,
    language: identity.language,
    saltKey: identity.keySession.saltKey,
    agentToken,
    send(message: WireMessage): void {
      if (socket.readyState !== OPEN) return;
      try {
        writes?.hold();
        socket.send(encodeFrame(message, cipher));
      } catch (error) {
        onError(error);
      }
    },
    close(code: number, reason: string): void {
      socket.close(code, reason);
    },
  };
}

/** Whether a logout's `dataContent` asks to log out everywhere (`{ "everywhere": true }`); anything else is a plain logout. */
export function isEverywhere(dataContent: unknown): boolean {
  if (typeof dataContent !== 'string' || dataContent.length > 256) return false;
  try {
    const value: unknown = JSON.parse(dataContent);
    return typeof value === 'object' && value !== null && (value as { everywhere?: unknown }).everywhere === true;
  } catch {
    return false;
  }
}

/** An admitted connection (see the module comment). */
export class Connection {
  /** How the chat layer sees this connection. */
  readonly peer: Peer;
  /** When the last frame arrived (the idle sweep reads it). */
  lastFrame: number;
  private work: Promise<void> = Promise.resolve();
  private waiting = 0;
  private readonly now: () => number;
  /** Encrypts and decrypts this connection's frames (switch on), made once. */
  private readonly cipher: FrameCipher | null;
  /** When this socket last kept its key session alive (the connect check just used it). */
  private keySessionKept: number;

  /** @param deps - the socket, identity and handlers */
  constructor(private readonly deps: ConnectionDeps) {
    this.now = deps.now ?? Date.now;
    this.cipher = deps.userKey ? new FrameCipher(deps.userKey) : null;
    this.peer = socketPeer(deps.socket, deps.identity, this.cipher, deps.agentToken, deps.onError, deps.writes);
    this.lastFrame = this.now();
    this.keySessionKept = this.lastFrame;
  }

  /** Pieces of work waiting in the queue (including the one running). */
  get pending(): number {
    return this.waiting;
  }

  /**
   * Runs a connection's work one piece at a time, in arrival order: a sender's messages are
   * stored and delivered in the order it sent them. Past {@link MAX_PENDING_FRAMES} waiting, the
   * socket is not read until the backlog is down to {@link RESUME_PENDING_FRAMES}: nothing is
   * dropped, the sender waits. Work that fails (the store away, say) closes the socket with 1011:
   * the client reconnects, gap-fills, and resends what was not acknowledged (the fp keeps that
   * exactly once); nothing of a frame is half done without the client knowing.
   */
  enqueue(work: () => Promise<void>): void {
    const { socket } = this.deps;
    this.waiting += 1;
    if (this.waiting === MAX_PENDING_FRAMES) socket.pause();
    this.work = this.work
      .then(work)
      .catch((error: unknown) => {
        this.deps.onError(error);
        if (socket.readyState === OPEN) socket.close(SERVER_ERROR_CLOSE, 'server error');
      })
      .finally(() => {
        this.waiting -= 1;
        if (this.waiting === RESUME_PENDING_FRAMES && socket.isPaused) socket.resume();
      });
  }

  /** Resolves once every piece of work queued so far has run. */
  idle(): Promise<void> {
    return this.work;
  }

  /**
   * Reads the socket again when something else paused it (the frames held before admission) and
   * the queue is not the one holding it back.
   */
  resumeUnlessBacklogged(): void {
    if (this.deps.socket.isPaused && this.waiting < MAX_PENDING_FRAMES) this.deps.socket.resume();
  }

  /**
   * One frame from the client: a heartbeat is answered at once, whatever is waiting; an
   * undecodable frame is refused (`bad-frame`); a logout and everything else join the queue.
   */
  receive(data: RawFrame, isBinary: boolean): void {
    const { peer } = this;
    this.lastFrame = this.now();
    this.keepKeySession();
    const text = frameText(data);
    const frame = isBinary && text.length === 0 ? undefined : decodeFrame(text, this.cipher);
    if (!frame) {
      refuse(peer, 'bad-frame', '');
      return;
    }
    if (frame.type === T.Heartbeat) {
      peer.send({ type: T.HeartbeatReply, from: 'system', to: peer.userId, sm: this.now(), dataContent: '{}' });
      return;
    }
    if (frame.type === T.AgentLogout) {
      this.enqueue(() => this.logout(isEverywhere(frame.dataContent)));
      return;
    }
    this.enqueue(() => this.handle(frame));
  }

  /**
   * A socket that is up keeps its key session alive (its heartbeats are enough), every
   * `keepEvery`: the session's HTTP calls still work after a day of the tab open and quiet.
   */
  private keepKeySession(): void {
    const { keySessions, onError } = this.deps;
    if (!keySessions || this.lastFrame - this.keySessionKept < keySessions.keepEvery) return;
    this.keySessionKept = this.lastFrame;
    keySessions.keep(this.peer.saltKey).catch(onError);
  }

  private handle(frame: ClientFrame): Promise<void> {
    return this.deps.messaging.handle(this.peer, frame);
  }

  /**
   * Type 312: the agent logs out: its token is revoked, its visitors released at once. Everywhere
   * (`{ everywhere: true }`): every token of the account is revoked first (no desk can come back
   * with one), then each of the agent's sockets on every node gets a type-312 notice and is closed
   * with 1000 `logged out` (the close order crosses nodes through Redis, after the notice).
   */
  private async logout(everywhere: boolean): Promise<void> {
    const { peer } = this;
    if (peer.role !== 'agent') {
      refuse(peer, 'not-allowed', '');
      return;
    }
    if (everywhere) await this.deps.agentTokens.revokeAll(peer.userId.slice('agent:'.length));
    else if (peer.agentToken !== undefined) await this.deps.agentTokens.revoke(peer.agentToken);
    this.deps.agentPresence.loggedOut(peer.userId);
    if (everywhere) {
      const now = this.now();
      this.deps.hub.sendTo(peer.userId, { type: T.AgentLogout, from: 'system', to: peer.userId, sm: now, createTime: now, dataContent: JSON.stringify({ everywhere: true }) }, peer);
      this.deps.hub.disconnect(peer.userId, LOGGED_OUT_CLOSE, 'logged out');
    }
    peer.close(LOGGED_OUT_CLOSE, 'logged out');
  }

  /** Closes the socket with `code` and `reason`. */
  close(code: number, reason: string): void {
    this.deps.socket.close(code, reason);
  }

  /** Drops the socket at once. */
  terminate(): void {
    this.deps.socket.terminate();
  }
}
