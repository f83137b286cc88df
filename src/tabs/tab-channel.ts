/**
 * The typed messages the tabs of one visitor exchange over a `BroadcastChannel`, their decoding
 * (anything else on the channel is ignored), and the identity-scoped name of the channel and lock.
 *
 * Frames are encrypted with each tab's own key session, so tabs exchange decoded messages
 * (objects), never raw frames:
 *
 * | kind | direction | meaning |
 * |---|---|---|
 * | `hello` | follower -> leader | a tab joined: send me your snapshot |
 * | `snapshot` | leader -> all | the leader's connection state and user id (on every change and after a hello); a follower that sees it turn `open` resends its pending messages; with `greet: true` (a tab that has just taken the lead and knows of no follower) the followers answer `hello` |
 * | `inbound` | leader -> all | a decoded message that arrived on the leader's socket |
 * | `send` | follower -> leader | a message to write on the leader's socket (`fp` kept) |
 * | `bye` | leader -> all | the leader resigns (its socket is going away) |
 * | `identity` | any -> all (the origin's identity channel) | the visitor `previous` is now `clientId` (`reset()`, `identify()`, a refused id): the tabs of `previous` follow |
 * @module
 */
import type { ConnectionState, IdentityChange } from '../events.js';
import type { ChatMessage } from '../messages/types.js';
import type { ListenerTarget } from '../timers.js';

/** Version of the tab messages: tabs of another version (e.g. an older deploy) are ignored. */
export const TAB_PROTOCOL_VERSION = 1;

/** The leader's connection as followers mirror it. */
export interface LeaderSnapshot {
  /** The leader's connection state. */
  state: ConnectionState;
  /** The user id the server gave the leader (the same identity for every tab). */
  userId?: string;
  /**
   * The leader's key session, bound to the identity by its accepted connect (protocol §3a): the
   * followers make their HTTP calls with it. Same-origin pages only (the channel's reach), which
   * can read the identity's stored secret anyway.
   */
  keySession?: SharedKeySession;
  /**
   * The member's identity token (protocol §3b) the leader's accepted connect sent: a follower
   * keeps the latest, so that when it leads (the member's tab closed) it connects as the member,
   * not as a forged member id (4004). Same reach as the key session above; held in memory only.
   */
  identityToken?: string;
}

/** A key session as the HTTP client uses it: the `X-Salt-Key` and the token that encrypts payloads. */
export interface SharedKeySession {
  /** The key session's name (`X-Salt-Key`). */
  saltKey: string;
  /** The decrypted user token (the AES-ECB key of (enc) payloads). */
  userKey: string;
}

/** One message between tabs; `from` is the sending tab's id. */
export type TabMessage =
  | { kind: 'hello'; from: string }
  | { kind: 'snapshot'; from: string; snapshot: LeaderSnapshot; greet?: true }
  | { kind: 'inbound'; from: string; message: ChatMessage; encrypted: boolean }
  | { kind: 'send'; from: string; message: ChatMessage }
  | { kind: 'bye'; from: string }
  | { kind: 'identity'; from: string; change: IdentityChange; previous: string; clientId: string };

/** The `BroadcastChannel` instance shape used (the browser's, Node's, or a fake). */
export interface BroadcastChannelLike extends ListenerTarget {
  /** Posts a structured-cloneable value to every other channel of the same name. */
  postMessage(message: unknown): void;
  /** Closes the channel. */
  close(): void;
}

/** A `BroadcastChannel` constructor. */
export type BroadcastChannelConstructor = new (name: string) => BroadcastChannelLike;

const STATES: ReadonlySet<string> = new Set(['closed', 'connecting', 'open', 'reconnecting', 'failed']);

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isMessage(v: unknown): v is ChatMessage {
  return isRecord(v) && typeof v['type'] === 'number';
}

/**
 * Decodes what arrived on the channel: a {@link TabMessage} of this version, or null for
 * anything else (another version, another library sharing the name, a malformed value).
 * @param data - the `data` of the channel's message event
 */
export function decodeTabMessage(data: unknown): TabMessage | null {
  if (!isRecord(data) || data['v'] !== TAB_PROTOCOL_VERSION) return null;
  const { kind, from } = data;
  if (typeof from !== 'string' || from === '') return null;
  switch (kind) {
    case 'hello':
    case 'bye':
      return { kind, from };
    case 'snapshot': {
      const s = data['snapshot'];
      if (!isRecord(s) || typeof s['state'] !== 'string' || !STATES.has(s['state'])) return null;
      const userId = typeof s['userId'] === 'string' && s['userId'] !== '' ? s['userId'] : undefined;
      const k = s['keySession'];
      const keySession = isRecord(k) && typeof k['saltKey'] === 'string' && typeof k['userKey'] === 'string' && k['saltKey'] && k['userKey']
        ? { saltKey: k['saltKey'], userKey: k['userKey'] }
        : undefined;
      const identityToken = typeof s['identityToken'] === 'string' && s['identityToken'] !== '' ? s['identityToken'] : undefined;
      const snapshot: LeaderSnapshot = { state: s['state'] as ConnectionState, ...(userId ? { userId } : {}), ...(keySession ? { keySession } : {}), ...(identityToken ? { identityToken } : {}) };
      return { kind, from, snapshot, ...(data['greet'] === true ? { greet: true as const } : {}) };
    }
    case 'inbound':
      return isMessage(data['message']) ? { kind, from, message: data['message'], encrypted: data['encrypted'] === true } : null;
    case 'send':
      return isMessage(data['message']) ? { kind, from, message: data['message'] } : null;
    case 'identity': {
      const { change, previous, clientId } = data;
      if (change !== 'identify' && change !== 'reset' && change !== 'refused') return null;
      return typeof previous === 'string' && typeof clientId === 'string' && previous !== '' && clientId !== '' ? { kind, from, change, previous, clientId } : null;
    }
    default:
      return null;
  }
}

/**
 * The name of a visitor's lock and channel. Web Locks and `BroadcastChannel` are shared by every
 * page of the origin, so the name carries the identity (client id, merchant, platform) and the
 * group: two visitors (or two conversations) of one browser never share a socket.
 * @param prefix - e.g. `kefu-im`
 * @param clientId - the client id (uuid, `u` of the connect payload)
 * @param connectData - the connect data (`mchId`, `platformId`, `groupId`, `role` are used)
 */
export function tabScopeName(prefix: string, clientId: string, connectData: Readonly<Record<string, unknown>>): string {
  const part = (v: unknown): string => (typeof v === 'string' || typeof v === 'number' ? encodeURIComponent(String(v)) : '');
  const group = part(connectData['groupId']).replace(/^(null|0|data3)$/, '');
  const role = connectData['role'] === 'agent' ? ':agent' : '';
  return `${prefix}:${part(clientId)}:${part(connectData['mchId'])}:${part(connectData['platformId'])}${group ? `:g${group}` : ''}${role}`;
}

/**
 * The name of the origin's identity channel: every coordinating tab listens there for `identity`
 * messages (whatever its visitor), so that a switch reaches the tabs of the visitor it leaves.
 * @param prefix - e.g. `kefu-im`
 */
export function identityChannelName(prefix: string): string {
  return `${prefix}:identity`;
}

/**
 * One tab's end of the channel: posts {@link TabMessage}s (stamped with the version and the
 * tab id) and hands decoded ones from other tabs to a listener. Post failures (a message that
 * cannot be cloned, a closed channel) are reported, never thrown.
 */
export class TabChannel {
  private readonly channel: BroadcastChannelLike;
  private readonly onEvent: (event: { data?: unknown }) => void;
  private closed = false;

  /**
   * @param name - the scoped channel name
   * @param Channel - the `BroadcastChannel` constructor
   * @param onMessage - receives every valid message from another tab
   * @param onError - told about a failed post
   */
  constructor(
    name: string,
    Channel: BroadcastChannelConstructor,
    onMessage: (message: TabMessage) => void,
    private readonly onError: (error: Error) => void,
  ) {
    this.channel = new Channel(name);
    this.onEvent = (event) => {
      const message = decodeTabMessage(event?.data);
      if (message && !this.closed) onMessage(message);
    };
    this.channel.addEventListener('message', this.onEvent);
  }

  /** Posts a message to every other tab. @returns false when it could not be posted */
  post(message: TabMessage): boolean {
    if (this.closed) return false;
    try {
      this.channel.postMessage({ v: TAB_PROTOCOL_VERSION, ...message });
      return true;
    } catch (error) {
      this.onError(error instanceof Error ? error : new Error(String(error)));
      return false;
    }
  }

  /** Removes the listener and closes the channel. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.channel.removeEventListener('message', this.onEvent);
    try {
      this.channel.close();
    } catch {
      // already closed
    }
  }
}
