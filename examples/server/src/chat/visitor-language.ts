/**
 * A visitor's change of interface language (type 106, docs/protocol.md): the server's own texts
 * to that connection follow it from then on (the robot's answers and name, the queue, busy and
 * closed texts, the suggested questions), the visitor's stored language too (the texts of later
 * events, the desk's visitor panel), and while the robot serves, the suggested questions are sent
 * again in the new language. Not stored as a message, never acknowledged.
 * @module
 */

import type { Visitors } from '../services/visitors.js';
import { refuse, visitorOf } from './context.js';
import type { Peer } from './hub.js';
import type { ClientFrame, RateCheck } from './messaging.js';
import type { Sessions } from './sessions.js';

/** The longest language tag taken (as in the connect data). */
export const MAX_LANGUAGE_LENGTH = 16;

/** A BCP 47-like tag: `en`, `zh-Hant`, `pt-BR`. */
const LANGUAGE_TAG = /^[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8})*$/;

/**
 * The language of a type-106 `dataContent` (`{"language":"en"}`), or undefined when it is not one.
 * @param dataContent - the frame's content
 */
export function languageOfFrame(dataContent: unknown): string | undefined {
  if (typeof dataContent !== 'string' || dataContent.length > 200) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(dataContent);
  } catch {
    return undefined;
  }
  const language = (parsed as { language?: unknown } | null)?.language;
  if (typeof language !== 'string' || language.length > MAX_LANGUAGE_LENGTH || !LANGUAGE_TAG.test(language)) return undefined;
  return language;
}

/** Handles type 106. */
export class VisitorLanguage {
  /**
   * @param sessions - the service sessions (suggestions again while the robot serves)
   * @param visitors - the visitors (the stored language)
   * @param allowSend - the socket rate limit: a change over it is dropped
   */
  constructor(
    private readonly sessions: Pick<Sessions, 'languageChanged'>,
    private readonly visitors: Pick<Visitors, 'setLanguage'>,
    private readonly allowSend: RateCheck,
  ) {}

  /**
   * A change from an agent is ignored (the server's texts are the visitors'); a malformed one is
   * refused `bad-frame`; the same language again, or a change over the rate limit, changes nothing
   * (the next connect carries the language in its connect data all the same).
   */
  async handle(peer: Peer, frame: ClientFrame): Promise<void> {
    if (peer.role !== 'visitor') return;
    const language = languageOfFrame(frame.dataContent);
    if (language === undefined) {
      refuse(peer, 'bad-frame', typeof frame.fp === 'string' ? frame.fp : '');
      return;
    }
    if (language === peer.language || !(await this.allowSend(peer))) return;
    peer.language = language;
    await this.visitors.setLanguage(peer.userId, language);
    await this.sessions.languageChanged(visitorOf(peer), (message) => peer.send(message));
  }
}
