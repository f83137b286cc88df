/**
 * Where the reference app gets the member's identity token (protocol §3b), loaded only when the
 * page is framed or its entry link carried a token:
 *
 * - the entry link's `?identity=<jwt>` (short-lived), taken off the address bar by
 *   {@link takeIdentityParam} before the app makes any request, and kept in memory only;
 * - the hosting page, over `postMessage`: `{ type: 'kefu:identity', token }` logs the member in
 *   (or hands a fresh token before the old one expires), `{ type: 'kefu:logout' }` logs out. Only
 *   messages from the embedding page's exact origin are heard; that page may frame
 *   the app at all only when the server's `FRAME_ANCESTORS` lists it (CSP `frame-ancestors`).
 *
 * Log in: every conversation client `identify()`s (the anonymous conversation is kept). Log out:
 * every one `reset()`s, which forgets the member on this device and shows a fresh chat.
 * @module
 */
// `embeddingOrigin` is part of the start-up code already (the launch message); `listenForMessages`
// is not, and importing it here would pull it into the start-up chunk: one exact origin is
// compared here instead (the same rule: only the listed origin is heard).
import { embeddingOrigin } from '@kefu-im/sdk/embed';
import type { AppRuntime } from './runtime.js';

/** Longest identity token accepted from the host page (the SDK's own limit too). */
export const MAX_HOST_TOKEN_LENGTH = 4096;

/** The member's token in force (memory only); null: an anonymous visitor. */
export interface IdentityHolder {
  token: string | null;
}

/**
 * The entry link's member identity token (`?identity=<jwt>`): taken off the address bar at once
 * (history.replaceState, so no later request's Referer and no bookmark carries it), never stored.
 * @param win - the window
 * @returns the token, or null without one (or one of more than {@link MAX_HOST_TOKEN_LENGTH} characters)
 */
export function takeIdentityParam(win: Window): string | null {
  const url = new URL(win.location.href);
  const token = url.searchParams.get('identity');
  if (token === null) return null;
  url.searchParams.delete('identity');
  win.history.replaceState(win.history.state, '', url);
  return token !== '' && token.length <= MAX_HOST_TOKEN_LENGTH ? token : null;
}

/** A message of the hosting page, once checked. */
export type HostIdentityMessage = { type: 'kefu:identity'; token: string } | { type: 'kefu:logout' };

/**
 * Checks a message of the hosting page: a log-in with a token of sane size and JWT shape, or a
 * log-out; anything else is null (ignored).
 * @param data - the message's data
 */
export function hostIdentityMessage(data: unknown): HostIdentityMessage | null {
  if (typeof data !== 'object' || data === null) return null;
  const { type, token } = data as { type?: unknown; token?: unknown };
  if (type === 'kefu:logout') return { type };
  if (type !== 'kefu:identity' || typeof token !== 'string') return null;
  if (token.length > MAX_HOST_TOKEN_LENGTH || !/^[\w-]+\.[\w-]+\.[\w-]*$/.test(token)) return null;
  return { type, token };
}

/**
 * Applies a host message to the runtime: log in (identify every conversation client not yet
 * verified; a verified one just takes the fresh token for its next connect) or log out (reset
 * every client). Failures are reported, never thrown.
 * @param runtime - the app runtime
 * @param holder - the token in force
 * @param message - a checked host message
 */
export async function applyHostIdentity(runtime: AppRuntime, holder: IdentityHolder, message: HostIdentityMessage): Promise<void> {
  const clients = runtime.visitorClients();
  if (message.type === 'kefu:logout') {
    if (holder.token === null && clients.every((c) => !c.connectionStore.getState().verified)) return;
    holder.token = null;
    await Promise.all(clients.map((c) => c.reset().catch((e: unknown) => console.warn('kefu: reset failed', e))));
    return;
  }
  const wasIn = holder.token !== null;
  holder.token = message.token;
  const source = async (): Promise<string | null> => holder.token;
  await Promise.all(
    clients
      .filter((c) => !(wasIn && c.connectionStore.getState().verified))
      .map((c) => c.identify(source).catch((e: unknown) => console.warn('kefu: identify failed', e))),
  );
}

/**
 * Conversation clients made from now on ask `holder`'s token before each connect; when framed, the
 * hosting page's identity messages (from its origin only) change it.
 * @param runtime - the app runtime
 * @param win - the window
 * @param token - the entry link's token, if any
 * @returns the holder and a remover of the listener (null when not framed or the host's origin is unknown)
 */
export function installIdentity(runtime: AppRuntime, win: Window, token: string | null): { holder: IdentityHolder; stop: (() => void) | null } {
  const holder: IdentityHolder = { token };
  runtime.visitorOptions = { ...runtime.visitorOptions, getIdentityToken: async () => holder.token };
  return { holder, stop: installIdentityBridge(runtime, holder, win) };
}

/**
 * Hears the hosting page's identity messages (from its origin only).
 * @param runtime - the app runtime
 * @param holder - the token in force
 * @param win - the window
 * @returns a remover, or null when the page is not framed or the host's origin is unknown
 */
export function installIdentityBridge(runtime: AppRuntime, holder: IdentityHolder, win: Window): (() => void) | null {
  const host = win.parent !== win ? embeddingOrigin(win) : null;
  if (host === null || host === 'null') return null;
  const listener = (event: MessageEvent): void => {
    if (event.origin !== host) return;
    const message = hostIdentityMessage(event.data);
    if (message) void applyHostIdentity(runtime, holder, message);
  };
  win.addEventListener('message', listener);
  return () => win.removeEventListener('message', listener);
}
