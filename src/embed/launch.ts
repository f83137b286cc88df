/**
 * Cross-window messages (spec §2, §7): the launch notification posted to the host page, and an
 * inbound `message` listener that only accepts listed origins.
 * @module
 */
import type { Disposer, ListenerTarget } from '../timers.js';
import { embeddingOrigin, type EmbeddingWindow } from './embedding-origin.js';
import type { PostMessageTarget } from './open-app.js';

/** The launch notification (spec §7: a message whose `type` is the event name `launch`). */
export interface LaunchMessage {
  /** Always `launch`. */
  type: 'launch';
}

/** The parts of `window` that {@link postLaunch} uses. A real `Window` fits. */
export interface LaunchWindow extends PostMessageTarget, Omit<EmbeddingWindow, 'parent'> {
  /** The parent window; the window itself when not framed. */
  readonly parent?: PostMessageTarget | null;
}

/** Options of {@link postLaunch}. */
export interface LaunchOptions {
  /**
   * The embedding page's origin (`https://shop.example`), when the integrator knows it. Default:
   * detected by {@link embeddingOrigin}.
   */
  parentOrigin?: string;
}

/**
 * Posts `{ type: 'launch' }` to the parent window when the page is framed, else to the window
 * itself (spec §2: "posts a launch notification to its parent window, or to itself when it has no
 * parent"). Call it once the view is mounted.
 *
 * Target origin: the spec (§7) posts with the wildcard `*`. This posts to the embedding page's
 * origin when it is known (`options.parentOrigin`, else {@link embeddingOrigin}), so that no other
 * page the frame is moved into hears it; the wildcard stays only as the fallback when the origin
 * is unknown, which is acceptable because the message carries nothing but its type. Posted to
 * itself, the message uses `*` too: only this window can receive it.
 * @param win - the window (`null`/`undefined` under SSR: nothing is posted)
 * @param options - the parent's origin, when known
 * @returns where it was posted: `parent`, `self`, or `null` when there is no window
 */
export function postLaunch(win: LaunchWindow | null | undefined, options: LaunchOptions = {}): 'parent' | 'self' | null {
  if (!win || typeof win.postMessage !== 'function') return null;
  const message: LaunchMessage = { type: 'launch' };
  let parent: PostMessageTarget | null | undefined;
  try {
    parent = win.parent;
  } catch {
    parent = null;
  }
  if (parent && (parent as unknown) !== win && typeof parent.postMessage === 'function') {
    parent.postMessage(message, options.parentOrigin ?? embeddingOrigin(win) ?? '*');
    return 'parent';
  }
  win.postMessage(message, '*');
  return 'self';
}

/** Options of {@link listenForMessages}. */
export interface MessageListenerOptions {
  /** Origins (`scheme://host[:port]`) whose messages are accepted; every other message is ignored. */
  allowedOrigins: readonly string[];
  /** Called with each accepted message's data and origin. */
  onMessage: (data: unknown, origin: string) => void;
}

function normaliseOrigin(origin: unknown): string {
  if (origin === 'null') return origin;
  if (typeof origin !== 'string' || origin === '*' || origin.trim() === '') {
    throw new TypeError(`listenForMessages: ${JSON.stringify(origin)} is not an origin; list exact origins such as https://example.com`);
  }
  let parsed: string;
  try {
    parsed = new URL(origin).origin;
  } catch {
    throw new TypeError(`listenForMessages: ${JSON.stringify(origin)} is not an origin; list exact origins such as https://example.com`);
  }
  if (parsed === 'null') throw new TypeError(`listenForMessages: ${JSON.stringify(origin)} has no origin`);
  return parsed;
}

/**
 * Listens for `message` events and hands on only those whose `origin` is one of
 * `allowedOrigins` (security rule: inbound postMessage checks the origin). The wildcard `*` is
 * refused; `null` (sandboxed frames, `file:` pages) is accepted only when listed literally.
 * @param win - the window to listen on
 * @param options - the allowed origins and the handler
 * @returns a disposer that removes the listener
 * @throws TypeError when an allowed origin is not an exact origin or the handler is missing
 */
export function listenForMessages(win: ListenerTarget, options: MessageListenerOptions): Disposer {
  if (!win || typeof win.addEventListener !== 'function') throw new TypeError('listenForMessages: a window is required');
  if (!options || !Array.isArray(options.allowedOrigins)) throw new TypeError('listenForMessages: allowedOrigins must be an array');
  if (typeof options.onMessage !== 'function') throw new TypeError('listenForMessages: onMessage must be a function');
  const allowed = new Set(options.allowedOrigins.map(normaliseOrigin));
  const { onMessage } = options;
  const listener = (event: { origin?: unknown; data?: unknown }): void => {
    const origin = event?.origin;
    if (typeof origin !== 'string' || !allowed.has(origin)) return;
    onMessage(event.data, origin);
  };
  win.addEventListener('message', listener);
  let removed = false;
  return () => {
    if (removed) return;
    removed = true;
    win.removeEventListener('message', listener);
  };
}
