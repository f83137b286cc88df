/**
 * Which calls speak for the caller (protocol §3a.3): the server answers them only for a key
 * session bound to an identity by an accepted socket connect, so that made between the socket
 * opening and the welcome they get 4003. The client makes them wait for the welcome.
 * @module
 * @internal
 */
import type { RequestOptions } from './http-client.js';
import type { TimerProvider } from '../timers.js';

/** The permit calls that name a visitor (the server's `boundRoute`s) and the uploads (`/oss/...`). */
const BOUND_PATHS = /\/(findMsgForCus|markScore|clientGroupMsgList|getGroupUserList|createMsg|question|triggerUpdate)$|^\/oss\//;

/**
 * Whether a call needs a bound key session: the calls of {@link BOUND_PATHS}, and `getGroupInfo`
 * naming a visitor (`clientId`: the visitor joins the group).
 * @param path - the call's path (below `/im`, or from the host root)
 * @param opts - its options
 * @internal
 */
export function needsBinding(path: string, opts: RequestOptions): boolean {
  return BOUND_PATHS.test(path) || (path.endsWith('/getGroupInfo') && opts.query?.['clientId'] !== undefined);
}

/**
 * Waits for `welcomed` before a call that needs a bound key session, at most `bound` ms (the
 * call then goes, and an unbound session gets 4003); nothing to wait for before other calls.
 * @param path - the call's path
 * @param opts - its options
 * @param welcomed - resolves once the welcome came (or none is coming)
 * @param timers - the client's timers
 * @param bound - the longest wait, ms
 * @internal
 */
export function welcomeBeforeCall(path: string, opts: RequestOptions, welcomed: () => Promise<void>, timers: TimerProvider, bound: number): Promise<void> | undefined {
  if (!needsBinding(path, opts)) return undefined;
  let late: ReturnType<TimerProvider['setTimeout']> | undefined;
  const timeout = new Promise<void>((resolve) => (late = timers.setTimeout(resolve, bound)));
  return Promise.race([welcomed(), timeout]).finally(() => {
    if (late !== undefined) timers.clearTimeout(late);
  });
}
