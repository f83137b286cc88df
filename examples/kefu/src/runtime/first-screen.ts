/**
 * The first screen of a returning visitor (issue 24): the newest messages of the conversation this
 * page showed last, kept on the device so that the next visit shows them at once, before the
 * server's configuration, the key exchange and the first history page (the real page replaces them
 * when it arrives). One record per device, for one visitor (client id) and one page address; the
 * server's public configuration is kept with it, so the client can be built before the config call
 * answers. Forgotten when the visitor's identity changes (`client.reset()`, `identify()`), when the
 * link turns out broken or the visitor banned.
 * @module
 */
import type { ImClient, PublicConfig, StoredMessage } from '@kefu-im/sdk';
import type { ConversationInfo } from '../chat/conversation.js';

/** The storage key of the record. */
export const FIRST_SCREEN_KEY = 'kefu:first-screen';
/** Most messages kept (a screen and a half on a phone). */
export const FIRST_SCREEN_MESSAGES = 20;
/** Most characters of the stored record (localStorage is small and shared with the app's state). */
export const FIRST_SCREEN_MAX_CHARS = 48_000;
/** Most characters of one stored message (a longer one is left out, and the older ones with it). */
const MAX_MESSAGE_CHARS = 4_000;

/** What a page needs of storage (`window.localStorage`, or a fake in tests). */
export type FirstScreenStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** The conversation facts shown before the page's preparation ends (the query is read again). */
export type FirstScreenInfo = Omit<ConversationInfo, 'query'>;

/** The stored first screen. */
export interface FirstScreen {
  /** Format version. */
  v: 1;
  /** The visitor it belongs to. */
  clientId: string;
  /** The page address it belongs to (path and query). */
  page: string;
  /** The server's public configuration when it was written. */
  config: PublicConfig;
  /** The conversation's facts (kind, merchant, title). */
  info: FirstScreenInfo;
  /** The newest messages, oldest first. */
  messages: StoredMessage[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isConfig(value: unknown): value is PublicConfig {
  return isRecord(value) && typeof value['baseUrl'] === 'string' && typeof value['socketUrl'] === 'string' && typeof value['socketKey'] === 'string';
}

function isInfo(value: unknown): value is FirstScreenInfo {
  return isRecord(value) && (value['kind'] === 'service' || value['kind'] === 'group' || value['kind'] === 'channel') && typeof value['title'] === 'string' && typeof value['notice'] === 'string';
}

function isMessage(value: unknown): value is StoredMessage {
  return isRecord(value) && typeof value['fp'] === 'string' && value['fp'] !== '' && typeof value['type'] === 'number';
}

/**
 * The stored first screen of this visitor and page, or null (none, another visitor's, another
 * page's, or unreadable).
 * @param storage - the page's storage
 * @param clientId - the visitor's client id
 * @param page - the page address (`pathname + search`)
 */
export function readFirstScreen(storage: FirstScreenStorage, clientId: string, page: string): FirstScreen | null {
  try {
    const raw = storage.getItem(FIRST_SCREEN_KEY);
    if (raw === null) return null;
    const value: unknown = JSON.parse(raw);
    if (!isRecord(value) || value['v'] !== 1 || value['clientId'] !== clientId || value['page'] !== page) return null;
    if (!isConfig(value['config']) || !isInfo(value['info']) || !Array.isArray(value['messages'])) return null;
    const messages = value['messages'].filter(isMessage);
    return messages.length === 0 ? null : { v: 1, clientId, page, config: value['config'], info: value['info'], messages };
  } catch {
    return null;
  }
}

/**
 * The record to keep: the newest {@link FIRST_SCREEN_MESSAGES} messages the server has (those
 * still pending or failed belong to the outbox, which keeps them itself), within the size limits.
 * @returns the record, or null when there is nothing to keep
 */
export function firstScreenOf(clientId: string, page: string, config: PublicConfig, info: ConversationInfo, messages: readonly StoredMessage[]): FirstScreen | null {
  const kept: StoredMessage[] = [];
  let chars = 0;
  for (let i = messages.length - 1; i >= 0 && kept.length < FIRST_SCREEN_MESSAGES; i--) {
    const message = messages[i];
    if (!message || !isMessage(message) || message.sendState === 'pending' || message.sendState === 'failed') continue;
    const size = JSON.stringify(message).length;
    if (size > MAX_MESSAGE_CHARS || chars + size > FIRST_SCREEN_MAX_CHARS / 2) break;
    chars += size;
    kept.unshift(message);
  }
  if (kept.length === 0) return null;
  const { kind, mchId, platformId, kefuId, groupId, title, notice } = info;
  return { v: 1, clientId, page, config, info: { kind, mchId, platformId, kefuId, groupId, title, notice }, messages: kept };
}

/**
 * Writes the record (replacing any other), or forgets it when `screen` is null.
 * @returns whether it was written
 */
export function writeFirstScreen(storage: FirstScreenStorage, screen: FirstScreen | null): boolean {
  try {
    if (!screen) {
      storage.removeItem(FIRST_SCREEN_KEY);
      return false;
    }
    const raw = JSON.stringify(screen);
    if (raw.length > FIRST_SCREEN_MAX_CHARS) {
      storage.removeItem(FIRST_SCREEN_KEY);
      return false;
    }
    storage.setItem(FIRST_SCREEN_KEY, raw);
    return true;
  } catch {
    return false;
  }
}

/** Forgets the stored first screen (an identity change, a broken link, a ban). */
export function forgetFirstScreen(storage: FirstScreenStorage | null): void {
  try {
    storage?.removeItem(FIRST_SCREEN_KEY);
  } catch {
    // storage refused: nothing was readable either
  }
}

/** The page's storage, or null when it is out of reach (privacy modes). */
export function pageStorage(): FirstScreenStorage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** A first screen handed from the boot to the conversation page. */
interface Primed {
  screen: FirstScreen;
  /** Told once its rows are on screen. */
  shown: () => void;
}

/** The first screens handed from the boot to the conversation page, one per client. */
const primed = new WeakMap<ImClient, Primed>();

/**
 * Hands a stored first screen to the conversation page of `client` (the boot read it before the
 * client started).
 * @param shown - told once its rows are on screen (the boot starts the key exchange then, so that
 *   its work does not hold up the first paint)
 */
export function primeFirstScreen(client: ImClient, screen: FirstScreen, shown: () => void = () => undefined): void {
  primed.set(client, { screen, shown });
}

/** The first screen handed over for `client`, if any. */
export function primedFirstScreen(client: ImClient): FirstScreen | null {
  return primed.get(client)?.screen ?? null;
}

/** The rows of the first screen of `client` are on screen. */
export function firstScreenShown(client: ImClient): void {
  primed.get(client)?.shown();
}

/** The client's first screen was replaced (or refused): it is not shown again by a remount. */
export function dropPrimedFirstScreen(client: ImClient): void {
  primed.get(client)?.shown();
  primed.delete(client);
}
