/**
 * Typing signals and sneak peek (type 105, protocol §5a): the one rule of who hears a typing frame.
 * A frame goes only between a visitor and the agent assigned to its open (active) conversation,
 * at most one per second per sender (the rest are dropped silently), and a visitor's draft
 * (`preview`) only when its merchant turned sneak peek on, cut to 200 characters. Nothing is
 * stored, acknowledged or logged: an unusable frame is dropped without a word.
 * @module
 */

import { randomUUID } from 'node:crypto';
import type { Peer } from '../chat/hub.js';
import { T, type WireMessage } from '../chat/wire.js';
import type { Merchant, Store } from '../store/types.js';
import type { Visitors } from './visitors.js';

/** The longest draft a preview carries (characters, counted as code points). */
export const PREVIEW_MAX_CHARS = 200;
/** A sender's typing frames are relayed at most once per this many ms. */
export const TYPING_MIN_GAP_MS = 1_000;

/** The states a typing frame may carry. */
export type TypingState = 'typing' | 'paused';

/** What a typing frame says, once read. */
export interface TypingSignal {
  /** Typing or paused. */
  state: TypingState;
  /** The visitor's draft (sneak peek), when sent. */
  preview?: string;
}

/** A relay decision: the frame to send and to whom. */
export interface TypingDelivery {
  /** The user id that hears it. */
  to: string;
  /** The frame it hears. */
  message: WireMessage;
}

/**
 * Whether a merchant has sneak peek on: named in `SNEAK_PEEK_MERCHANTS` (or that list is `*`), or
 * switched on in the store by the admin command (`merchant sneak-peek <mchId> on`, kept in the
 * merchant's `extra.sneakPeek`). Off by default.
 * @param merchants - the ids of `SNEAK_PEEK_MERCHANTS`
 * @param merchant - the merchant, if known
 */
export function sneakPeekOn(merchants: readonly string[], merchant: Merchant | undefined): boolean {
  if (!merchant) return false;
  return merchants.includes('*') || merchants.includes(merchant.mchId) || merchant.extra['sneakPeek'] === true;
}

/**
 * Reads a typing frame's `dataContent`: JSON `{"state":"typing"|"paused"}` with an optional string
 * `preview`; anything else is undefined.
 */
export function readTypingSignal(dataContent: unknown): TypingSignal | undefined {
  if (typeof dataContent !== 'string' || dataContent.length > 4_096) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(dataContent);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { state, preview } = parsed as { state?: unknown; preview?: unknown };
  if (state !== 'typing' && state !== 'paused') return undefined;
  return typeof preview === 'string' && state === 'typing' ? { state, preview } : { state };
}

/** `text` cut to {@link PREVIEW_MAX_CHARS} code points (never in the middle of a surrogate pair). */
export function capPreview(text: string): string {
  if (text.length <= PREVIEW_MAX_CHARS) return text;
  return Array.from(text).slice(0, PREVIEW_MAX_CHARS).join('');
}

/** The typing relay. */
export class Typing {
  /** When each sender's last relayed frame was accepted (ms). */
  private readonly lastAccepted = new Map<string, number>();

  /**
   * @param store - storage (conversations and merchants are read, nothing is written)
   * @param sneakPeekMerchants - `SNEAK_PEEK_MERCHANTS`
   * @param visitors - the visitor rule (a banned or blacklisted visitor sends nothing)
   * @param now - the clock (tests)
   */
  constructor(
    private readonly store: Store,
    private readonly sneakPeekMerchants: readonly string[],
    private readonly visitors: Pick<Visitors, 'refusal'>,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether the merchant `mchId` has sneak peek on (see {@link sneakPeekOn}). */
  async sneakPeek(mchId: string): Promise<boolean> {
    return sneakPeekOn(this.sneakPeekMerchants, await this.store.directory.merchant(mchId));
  }

  /**
   * Decides what becomes of a typing frame from `peer`: whom it reaches and with what content, or
   * undefined (dropped silently) when it is malformed, too soon after the sender's last one, or
   * the sender has no active conversation with the addressed party (or is a visitor refused sending).
   * @param peer - the sending connection
   * @param frame - the decoded frame: its `to` (an agent names the visitor) and `dataContent` are read
   */
  async relay(peer: Peer, frame: Readonly<Record<string, unknown>>): Promise<TypingDelivery | undefined> {
    const signal = readTypingSignal(frame.dataContent);
    if (!signal || !this.allow(peer.userId)) return undefined;
    if (peer.role === 'visitor' && (await this.visitors.refusal(peer.userId, 'send')) !== undefined) return undefined;
    const route = peer.role === 'agent' ? await this.visitorOf(peer.userId, frame.to) : await this.agentOf(peer);
    if (!route) return undefined;
    const content: TypingSignal = { state: signal.state };
    // a preview goes from a visitor to its agent only, and only with sneak peek on
    if (peer.role === 'visitor' && signal.preview !== undefined && (await this.sneakPeek(route.mchId))) {
      content.preview = capPreview(signal.preview);
    }
    return {
      to: route.to,
      message: {
        type: T.Typing,
        from: peer.userId,
        to: route.to,
        fn: peer.name,
        fa: peer.avatar,
        fp: randomUUID(),
        mchId: route.mchId,
        createTime: this.now(),
        dataContent: JSON.stringify(content),
      },
    };
  }

  /** The rate rule: one frame per {@link TYPING_MIN_GAP_MS} per sender. */
  private allow(userId: string): boolean {
    const now = this.now();
    const last = this.lastAccepted.get(userId);
    if (last !== undefined && now - last < TYPING_MIN_GAP_MS) return false;
    this.lastAccepted.set(userId, now);
    if (this.lastAccepted.size > 1_000) this.forgetOld(now);
    return true;
  }

  /** Drops senders whose last frame is older than the gap (they would be allowed anyway). */
  private forgetOld(now: number): void {
    for (const [userId, at] of this.lastAccepted) if (now - at >= TYPING_MIN_GAP_MS) this.lastAccepted.delete(userId);
  }

  /** A visitor's assigned agent, when its conversation is active (protocol §3a.4). */
  private async agentOf(peer: Peer): Promise<{ to: string; mchId: string } | undefined> {
    const session = await this.store.chat.latestSession(peer.userId, peer.mchId, peer.platformId);
    if (session?.state !== 'active' || !session.agentId) return undefined;
    return { to: session.agentId, mchId: session.mchId };
  }

  /** The visitor `to` when the agent serves its active conversation (protocol §3a.5). */
  private async visitorOf(agentId: string, to: unknown): Promise<{ to: string; mchId: string } | undefined> {
    if (typeof to !== 'string' || to === '') return undefined;
    const session = await this.store.chat.activeSessionWith(agentId, to);
    return session ? { to, mchId: session.mchId } : undefined;
  }
}
