/**
 * `client.typing`: the small part of typing signals that exists from construction (a store the UI
 * may subscribe to at once, and the calls). The rules (throttle, idle, expiry, the frames) live in
 * the typing room (`room.ts`), loaded on first use: the first {@link Typing.input} or
 * {@link Typing.load} (the React hook calls it).
 * @module
 */
import { lazy } from '../lazy.js';
import { createStore, type Store } from '../state/store.js';
import type { TimerProvider } from '../timers.js';
import type { TypingRoom } from './room.js';
import type { TypingClient, TypingSnapshot } from './types.js';

/**
 * Typing signals both ways (type 105, protocol §5a) of one client: `client.typing`.
 *
 * ```ts
 * textarea.oninput = () => client.typing.input(textarea.value); // throttled by the SDK
 * textarea.onblur = () => client.typing.blur();
 * client.typing.store.subscribe(({ conversations }) => render(conversations[client.userId]));
 * void client.typing.load(); // hear the other side before the first keystroke
 * ```
 */
export interface Typing {
  /** Who is typing, per conversation (the visitor's client id); filled once the room has loaded. */
  readonly store: Store<TypingSnapshot>;
  /**
   * Loads the typing room once (again after a failed load): from then on incoming signals fill
   * {@link Typing.store}. Resolves when it listens.
   */
  load(): Promise<unknown>;
  /**
   * Tells the other party that this user types (call it on every input event; the SDK sends
   * `typing` at most once per 2 s and `paused` after 5 s without input). An empty draft counts
   * as a pause.
   * @param draft - the composer's text: a visitor's reaches its agent only when the merchant has
   *   sneak peek on (at most 200 characters); never sent otherwise
   * @param to - an agent names the visitor (its client id); a visitor leaves it out
   */
  input(draft?: string, to?: string): void;
  /**
   * The composer lost focus: `paused` now (if `typing` was said). Sending a message says `paused`
   * by itself.
   * @param to - as in {@link Typing.input}
   */
  blur(to?: string): void;
  /** Stops every timer and listener of typing signals (the client's `destroy()` calls it). */
  destroy(): void;
}

/**
 * Creates `client.typing`.
 * @param client - the client (its public calls)
 * @param timers - the client's timer provider
 * @internal
 */
export function createTyping(client: TypingClient, timers: TimerProvider): Typing {
  const store = createStore<TypingSnapshot>({ conversations: {} });
  let room: TypingRoom | undefined;
  let destroyed = false;
  const load = lazy(() => import('./room.js').then(({ TypingRoom }) => (room ??= destroyed ? undefined : new TypingRoom(client, timers, store))));
  return {
    store,
    load,
    input: (draft, to) => void load().then((r) => r?.input(draft, to), () => undefined),
    blur: (to) => room?.blur(to),
    destroy: () => {
      destroyed = true;
      room?.destroy();
    },
  };
}
