/**
 * The typed event map of {@link ImClient}: one context object per event.
 * @module
 */
import type { TypingIndicator } from './typing/types.js';
import type { ChatMessage, RefusalReason, SendState, SessionEvent, StoredMessage, SuggestedQuestion } from './messages/types.js';
import type { AvailabilitySnapshot, UnavailableReason } from './presence/types.js';

/** Connection states (spec §4): `failed` is entered after the reconnect limit. */
export type ConnectionState = 'closed' | 'connecting' | 'open' | 'reconnecting' | 'failed';

/** Where an error event comes from. */
export type ErrorSource = 'start' | 'connect' | 'socket' | 'frame' | 'http' | 'receipt' | 'clock' | 'upload' | 'send';

/** Severity of a user-facing notice (the spec's toast types). */
export type NoticeLevel = 'success' | 'info' | 'warning' | 'error';

/**
 * A user-facing notice. The SDK is headless: it shows no toast itself; the application shows
 * `text` (already translated into the current language) for `duration` ms.
 */
export interface Notice {
  /** The i18n key of the text (see `I18nKey`). */
  key: string;
  /** The text in the current language (or the server's own message). */
  text: string;
  /** Severity. */
  level: NoticeLevel;
  /** How long to show it, ms (spec default 2 000). */
  duration: number;
}

/** Why the server refused an identity token (close code 4006's reason, protocol §3b). */
export type IdentityTokenRefusal = 'expired' | 'invalid' | 'merchant';

/**
 * What changed the visitor's identity on a running client: `identify()`, `reset()`, or `refused`:
 * the server refused the client id held on this device (close code 4004: e.g. a member's id after
 * a reload that gave no identity token, or a deleted id), so the client forgot it here as `reset()`
 * does and connects as a new anonymous visitor by itself.
 */
export type IdentityChange = 'identify' | 'reset' | 'refused';

/** Events emitted by {@link ImClient}. Listen with `client.on(name, listener)`. */
export interface ImClientEvents {
  /** The connection state changed. */
  state: (ctx: { newState: ConnectionState; oldState: ConnectionState }) => void;
  /** The socket opened (spec §4): counters reset, heartbeat started. */
  'socket login': (ctx: { reconnected: boolean }) => void;
  /** Every decoded incoming frame (spec §7). */
  'socket message': (ctx: { message: ChatMessage; encrypted: boolean }) => void;
  /** The server told the user id (`to` of the welcome or any message). */
  user: (ctx: { userId: string }) => void;
  /**
   * A chat message arrived: once per message (`fp`), when it joins the message list, whether it
   * came on the socket or from the catch-up after a reconnect (`caughtUp: true`: it was missed
   * while the socket was down). One's own message is told once the server confirmed it (its
   * acknowledgement, `sendState: 'sent'`), not while it is pending; follow `send state` for that.
   * What reaches the client again (a resend's acknowledgement, a catch-up page holding what is
   * held) and later changes (read state, a merge) are not told again: read them from
   * `client.messages`. Older history pages (`loadOlder`) are not told either.
   */
  message: (ctx: { message: StoredMessage; caughtUp: boolean }) => void;
  /** An outgoing message changed sending state. */
  'send state': (ctx: { fp: string; state: SendState; message: StoredMessage; reason?: RefusalReason }) => void;
  /** A session event (type 300). */
  session: (ctx: SessionEvent & { message: ChatMessage }) => void;
  /** Suggested questions arrived (type 201). */
  suggestions: (ctx: { questions: SuggestedQuestion[]; message: ChatMessage }) => void;
  /** The server refused something (type 500). */
  refusal: (ctx: { reason: RefusalReason; fp?: string; message: ChatMessage }) => void;
  /** A read receipt for one of our messages arrived (type 104). */
  receipt: (ctx: { fp: string; message: ChatMessage }) => void;
  /** A user-facing notice to show as a toast. */
  notice: (ctx: Notice) => void;
  /** Something failed that the caller did not await (bad frame, socket error, swallowed start-up step). */
  error: (ctx: { error: Error; source: ErrorSource }) => void;
  /** The browser went offline or online. */
  network: (ctx: { online: boolean }) => void;
  /**
   * Somebody started or stopped typing in a conversation (type 105; heard once `client.typing`
   * has loaded): `indicator` is null when nobody types there any more.
   */
  typing: (ctx: { conversationId: string; indicator: TypingIndicator | null }) => void;
  /**
   * The server refused the member's identity token (close code 4006, protocol §3b). With
   * `retrying: true` the client asked `getIdentityToken` again and reconnects; with `retrying:
   * false` (a second refusal in a row) it stopped (halt reason `identity-token-refused`): show it,
   * the member should log in again.
   */
  'identity token refused': (ctx: { reason: IdentityTokenRefusal; retrying: boolean }) => void;
  /**
   * `identify()` or `reset()` switched the visitor, or the server refused the client id held
   * (`refused`, close code 4004): the conversation held was cleared (`reset`, `refused`) or will be
   * the member's (`identify`); views reload their history. `clientId` is the client id now.
   */
  identity: (ctx: { change: IdentityChange; clientId: string }) => void;
  /** The interface language changed (its texts are loaded). */
  language: (ctx: { language: string }) => void;
  /**
   * Availability changed (business hours, agents available, queue estimate; type 320). Emitted
   * once the availability store is loaded (`client.availability()`).
   */
  availability: (ctx: { snapshot: AvailabilitySnapshot; previous: AvailabilitySnapshot }) => void;
  /**
   * The visitor asked for a human and nobody can come (session event `unavailable`): `closed`
   * (outside business hours; not queued) or `no-agent` (queued, nobody online). Emitted once the
   * availability store is loaded.
   */
  unavailable: (ctx: { reason: UnavailableReason; nextOpenAt: number | null; message: ChatMessage }) => void;
}

/** The name of an {@link ImClientEvents} event. */
export type ImClientEventName = keyof ImClientEvents;
