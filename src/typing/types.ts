/**
 * The shapes of typing signals (type 105, protocol §5a): what a conversation's indicator holds and
 * what the typing room needs from the client. Types only: nothing here is loaded at start-up.
 * @module
 */
import type { ImClient } from '../client.js';

/** Who is typing in one conversation, and since when. */
export interface TypingIndicator {
  /** True while the other party is typing (expires 6 s after its last signal). */
  readonly typing: boolean;
  /** The typing party's user id (an agent's `agent:<account>`, or the visitor's client id). */
  readonly from: string;
  /** The typing party's display name (the frame's `fn`). */
  readonly who: string;
  /** When it started typing (ms, this device's clock). */
  readonly since: number;
  /**
   * The visitor's draft as it is typed (sneak peek, at most 200 characters): only an agent hears
   * it, and only when the merchant turned sneak peek on.
   */
  readonly preview?: string;
}

/**
 * Who is typing, per conversation. A conversation is named by its visitor's client id: an agent
 * has one per visitor it serves, a visitor one (its own id). A conversation where nobody types
 * has no entry.
 */
export interface TypingSnapshot {
  /** The indicators of the conversations where somebody types. */
  readonly conversations: Readonly<Record<string, TypingIndicator>>;
}

/** What the typing room uses of the client: its public calls only. @internal */
export type TypingClient = Pick<ImClient, 'send' | 'on' | 'off' | 'emit' | 'getConnectData' | 'userId' | 'state'>;
