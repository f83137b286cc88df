/**
 * Visitors: who may do what (the ban and blacklist rule, in this one place), the upsert of a
 * visitor when its socket is accepted, and the look-ups the routes need.
 *
 * The rule (spec §5, protocol §3 and §4): a banned visitor is refused everything (code 2003, a
 * type-500 `banned` refusal on the socket); a blacklisted visitor may read and connect but is
 * refused sending and rating (code 2001, a type-500 `blacklisted` refusal).
 * @module
 */

import { DEFAULT_VISITOR_AVATAR, defaultVisitorName, type VisitorRef } from '../chat/context.js';
import { ApiError, Code } from '../http/envelope.js';
import type { Store, Visitor } from '../store/types.js';

/** What a visitor asks to do: `use` (anything at all), `send` (a chat message), `rate` (a session). */
export type VisitorAction = 'use' | 'send' | 'rate';

/** Why a visitor is refused: the socket's type-500 reason, the same word as the flag. */
export type VisitorRefusal = 'banned' | 'blacklisted';

/** What the socket knows of a visitor when it is accepted. */
export interface ConnectingVisitor {
  /** The client id (`u`). */
  clientId: string;
  /** Display name. */
  name: string;
  /** Avatar URL. */
  avatar: string;
  /** Language. */
  language: string;
}

/** The user-facing text of each refusal on HTTP (the socket sends only the reason). */
const REFUSAL_MESSAGES: Record<VisitorRefusal, Record<VisitorAction, string>> = {
  banned: {
    use: 'Access denied: please contact the administrator',
    send: 'Access denied: please contact the administrator',
    rate: 'Access denied: please contact the administrator',
  },
  blacklisted: {
    use: 'You have been blacklisted',
    send: 'You have been blacklisted and cannot send messages',
    rate: 'You have been blacklisted and cannot use the review function',
  },
};

/**
 * The rule: why `visitor` may not do `action`, or undefined when it may. An unknown visitor (no
 * row yet) is refused nothing.
 */
export function visitorRefusal(visitor: Pick<Visitor, 'banned' | 'blacklisted'> | undefined, action: VisitorAction): VisitorRefusal | undefined {
  if (visitor?.banned) return 'banned';
  if (visitor?.blacklisted && action !== 'use') return 'blacklisted';
  return undefined;
}

/** The HTTP error of a refusal: code 2003 (banned) or 2001 (blacklisted). */
export function refusalError(refusal: VisitorRefusal, action: VisitorAction): ApiError {
  return new ApiError(refusal === 'banned' ? Code.Banned : Code.Blacklisted, REFUSAL_MESSAGES[refusal][action]);
}

/** The visitor service. */
export class Visitors {
  /**
   * @param store - storage
   * @param now - the wall clock (createdAt, lastSeen)
   */
  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
  ) {}

  /** The stored visitor, if any. */
  find(clientId: string): Promise<Visitor | undefined> {
    return this.store.chat.visitor(clientId);
  }

  /** Why `clientId` may not do `action` ({@link visitorRefusal}), or undefined. */
  async refusal(clientId: string, action: VisitorAction): Promise<VisitorRefusal | undefined> {
    return visitorRefusal(await this.find(clientId), action);
  }

  /** Whether `clientId` is banned (refused everything). */
  async isBanned(clientId: string): Promise<boolean> {
    return (await this.refusal(clientId, 'use')) === 'banned';
  }

  /**
   * Refuses `clientId` when it may not do `action`.
   * @throws ApiError 2003 (banned) or 2001 (blacklisted; never for `use`).
   */
  async requireAllowed(clientId: string, action: VisitorAction = 'use'): Promise<void> {
    const refusal = await this.refusal(clientId, action);
    if (refusal !== undefined) throw refusalError(refusal, action);
  }

  /**
   * Stores the visitor whose socket is being accepted: name, avatar, language and last seen are
   * updated; the flags and the first-seen time of a known visitor are kept.
   * @returns the stored visitor
   */
  async saveOnConnect(identity: ConnectingVisitor): Promise<Visitor> {
    const now = this.now();
    const known = await this.find(identity.clientId);
    const visitor: Visitor = {
      clientId: identity.clientId,
      name: identity.name,
      avatar: identity.avatar,
      language: identity.language,
      blacklisted: known?.blacklisted ?? false,
      banned: known?.banned ?? false,
      createdAt: known?.createdAt ?? now,
      lastSeen: now,
    };
    await this.store.chat.saveVisitor(visitor);
    return visitor;
  }

  /**
   * Keeps a known visitor's new language (it changed it on a connection, type 106); an unknown
   * visitor is stored at its next connect.
   */
  async setLanguage(clientId: string, language: string): Promise<void> {
    const known = await this.find(clientId);
    if (known && known.language !== language) await this.store.chat.saveVisitor({ ...known, language });
  }

  /**
   * The visitor in a merchant's conversation: its stored name, avatar and language, or defaults
   * (`fallbackLanguage`, usually the request's, and a name made of the client id).
   */
  async ref(clientId: string, mchId: string, platformId: string, fallbackLanguage: string): Promise<VisitorRef> {
    const known = await this.find(clientId);
    const language = known?.language ?? fallbackLanguage;
    return {
      clientId,
      name: known?.name ?? defaultVisitorName(clientId, language),
      avatar: known?.avatar ?? DEFAULT_VISITOR_AVATAR,
      mchId,
      platformId,
      language,
    };
  }
}
