/**
 * Canned replies: a merchant's ready answers (title, text, `/shortcut`) that agents send from the
 * desk and that the admin command manages. The rules of what a reply may hold live here.
 * @module
 */

import { randomUUID } from 'node:crypto';
import { ApiError, Code } from '../http/envelope.js';
import type { CannedReply } from '../store/desk-types.js';
import type { Store } from '../store/types.js';

/** The most canned replies one merchant keeps. */
export const MAX_CANNED_PER_MERCHANT = 200;
/** The longest title (characters). */
export const MAX_CANNED_TITLE = 100;
/** The longest text (characters). */
export const MAX_CANNED_TEXT = 2000;
/** A shortcut: 1-32 letters, digits, `-` or `_`. */
export const SHORTCUT_PATTERN = /^[\p{L}\p{N}_-]{1,32}$/u;

/** What a new canned reply is made of. */
export interface CannedInput {
  mchId: string;
  title: string;
  text: string;
  shortcut: string;
}

const bad = (message: string): ApiError => new ApiError(Code.BadRequest, message);

/** Checks a new reply's fields. @throws ApiError 1001 naming what is wrong. */
export function checkCanned(input: CannedInput): CannedInput {
  const title = input.title.trim();
  const text = input.text.trim();
  const shortcut = input.shortcut.trim().replace(/^\//, '');
  if (input.mchId.trim() === '') throw bad('mchId is required');
  if (title === '' || title.length > MAX_CANNED_TITLE) throw bad(`title must be 1-${MAX_CANNED_TITLE} characters`);
  if (text === '' || text.length > MAX_CANNED_TEXT) throw bad(`text must be 1-${MAX_CANNED_TEXT} characters`);
  if (!SHORTCUT_PATTERN.test(shortcut)) throw bad('shortcut must be 1-32 letters, digits, "-" or "_"');
  return { mchId: input.mchId.trim(), title, text, shortcut };
}

/** Canned replies per merchant. */
export class Canned {
  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
  ) {}

  /** A merchant's replies by shortcut. */
  list(mchId: string): Promise<CannedReply[]> {
    return this.store.desk.cannedReplies(mchId);
  }

  /**
   * Adds a reply.
   * @throws ApiError 1001 for a bad field, a shortcut the merchant has already, or a merchant at
   * {@link MAX_CANNED_PER_MERCHANT}.
   */
  async add(input: CannedInput): Promise<CannedReply> {
    const checked = checkCanned(input);
    return this.store.transaction(async (tx) => {
      if ((await tx.desk.cannedReplies(checked.mchId)).length >= MAX_CANNED_PER_MERCHANT) {
        throw bad(`a merchant keeps at most ${MAX_CANNED_PER_MERCHANT} canned replies`);
      }
      const reply: CannedReply = { id: randomUUID(), ...checked, createdAt: this.now() };
      if (!(await tx.desk.addCanned(reply))) throw bad(`the shortcut /${checked.shortcut} is taken`);
      return reply;
    });
  }

  /**
   * Replaces a reply's title, text and shortcut (checked as for {@link Canned.add}); the reply
   * keeps its id and when it was added.
   * @throws ApiError 1001 for a bad field or a shortcut another reply of the merchant has; 1003
   * when the merchant has no such reply.
   */
  async update(id: string, input: CannedInput): Promise<CannedReply> {
    const checked = checkCanned(input);
    const current = (await this.store.desk.cannedReplies(checked.mchId)).find((r) => r.id === id);
    if (current === undefined) throw new ApiError(Code.NotFound, 'no such canned reply');
    const reply: CannedReply = { ...current, title: checked.title, text: checked.text, shortcut: checked.shortcut };
    const outcome = await this.store.desk.updateCanned(reply);
    if (outcome === 'taken') throw bad(`the shortcut /${checked.shortcut} is taken`);
    if (outcome === 'missing') throw new ApiError(Code.NotFound, 'no such canned reply');
    return reply;
  }

  /** Removes a reply. @throws ApiError 1003 when the merchant has no such reply. */
  async remove(mchId: string, id: string): Promise<void> {
    if (!(await this.store.desk.removeCanned(mchId, id))) throw new ApiError(Code.NotFound, 'no such canned reply');
  }
}
