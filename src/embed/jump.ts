/**
 * Global jump functions (spec §2: "Global jump functions exist on the window for opening a chat,
 * a group and a channel"), for links in message HTML such as
 * `<a href="javascript:kefuJumpGroup('g1', 'Support')">`.
 * @module
 */
import type { Disposer } from '../timers.js';

/** What the jump functions do; the app routes to the page. */
export interface JumpHandlers {
  /** Open the one-to-one chat with this id (route `/kefu/{id}`). */
  openChat(id: string): void;
  /** Open a group (route `/group/{id}/{name}`). */
  openGroup(id: string, name?: string): void;
  /** Open a channel (a group of kind `channel`). */
  openChannel(id: string, name?: string): void;
}

/** The global names of the jump functions. */
export interface JumpFunctionNames {
  /** Name of the chat function (default `kefuJumpChat`). */
  chat: string;
  /** Name of the group function (default `kefuJumpGroup`). */
  group: string;
  /** Name of the channel function (default `kefuJumpChannel`). */
  channel: string;
}

/** The default global names. */
export const DEFAULT_JUMP_FUNCTION_NAMES: Readonly<JumpFunctionNames> = Object.freeze({
  chat: 'kefuJumpChat',
  group: 'kefuJumpGroup',
  channel: 'kefuJumpChannel',
});

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function idArg(fnName: string, id: unknown): string {
  const text = typeof id === 'number' && Number.isFinite(id) ? String(id) : id;
  if (typeof text !== 'string' || text.trim() === '') throw new TypeError(`${fnName}: id must be a non-empty string`);
  return text.trim();
}

function nameArg(name: unknown): string | undefined {
  return typeof name === 'string' && name.trim() !== '' ? name : undefined;
}

/**
 * Defines the jump functions on `win` (default names `kefuJumpChat(id)`,
 * `kefuJumpGroup(id, name?)`, `kefuJumpChannel(id, name?)`). Each checks its id (a non-empty
 * string or a number; otherwise it throws a TypeError) and calls the handler.
 * @param win - the window (or any object) to define them on
 * @param handlers - what they do
 * @param names - other global names
 * @returns a disposer that removes them again (restoring what was there before, unless it was
 * replaced meanwhile)
 * @throws TypeError for a missing window or handler, or names that are not distinct identifiers
 */
export function installJumpFunctions(win: object, handlers: JumpHandlers, names: Partial<JumpFunctionNames> = {}): Disposer {
  if (typeof win !== 'object' || win === null) throw new TypeError('installJumpFunctions: a window is required');
  for (const key of ['openChat', 'openGroup', 'openChannel'] as const) {
    if (typeof handlers?.[key] !== 'function') throw new TypeError(`installJumpFunctions: handlers.${key} must be a function`);
  }
  const n: JumpFunctionNames = { ...DEFAULT_JUMP_FUNCTION_NAMES, ...names };
  const list = [n.chat, n.group, n.channel];
  if (list.some((x) => typeof x !== 'string' || !IDENTIFIER.test(x)) || new Set(list).size !== 3) {
    throw new TypeError(`installJumpFunctions: names must be three distinct identifiers, got ${JSON.stringify(list)}`);
  }
  const fns: Record<string, (id: unknown, name?: unknown) => void> = {
    [n.chat]: (id) => handlers.openChat(idArg(n.chat, id)),
    [n.group]: (id, name) => handlers.openGroup(idArg(n.group, id), nameArg(name)),
    [n.channel]: (id, name) => handlers.openChannel(idArg(n.channel, id), nameArg(name)),
  };
  const previous = new Map<string, PropertyDescriptor | undefined>();
  for (const [key, fn] of Object.entries(fns)) {
    previous.set(key, Object.getOwnPropertyDescriptor(win, key));
    Object.defineProperty(win, key, { value: fn, writable: true, configurable: true, enumerable: false });
  }
  let disposed = false;
  return () => {
    if (disposed) return;
    disposed = true;
    for (const [key, fn] of Object.entries(fns)) {
      if (Reflect.get(win, key) !== fn) continue;
      const before = previous.get(key);
      if (before) Object.defineProperty(win, key, before);
      else Reflect.deleteProperty(win, key);
    }
  };
}
