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
 * Typing signals both ways (type 105, protocol §5a) of one client.
 *
 * ```ts
 * textarea.oninput = () => client.typing.input(textarea.value); // throttled by the SDK
 * textarea.onblur = () => client.typing.blur();
 * client.typing.store.subscribe(({ conversations }) => render(conversations[client.userId]));
 * void client.typing.load(); // hear the other side before the first keystroke
 * ```
 */
export class Typing {
  /** Who is typing, per conversation (the visitor's client id); filled once the room has loaded. */
  readonly store: Store<TypingSnapshot> = createStore<TypingSnapshot>({ conversations: {} });
  /**
   * Loads the typing room once (again after a failed load): from then on incoming signals fill
   * {@link Typing.store}. Resolves when it listens.
   */
  readonly load: () => Promise<unknown>;
  private room: TypingRoom | undefined;
  private destroyed = false;

  /**
   * @param client - the client (its public calls)
   * @param timers - the client's timer provider
   * @internal
   */
  constructor(client: TypingClient, timers: TimerProvider) {
    this.load = lazy(() =>
      import('./room.js').then(({ TypingRoom }) => {
        if (!this.destroyed) this.room ??= new TypingRoom(client, timers, this.store);
      }),
    );
  }

  /**
   * Tells the other party that this user types (call it on every input event; the SDK sends
   * `typing` at most once per 2 s and `paused` after 5 s without input). An empty draft counts
   * as a pause.
   * @param draft - the composer's text: a visitor's reaches its agent only when the merchant has
   *   sneak peek on (at most 200 characters); never sent otherwise
   * @param to - an agent names the visitor (its client id); a visitor leaves it out
   */
  input(draft?: string, to?: string): void {
    if (this.room) this.room.input(draft, to);
    else this.load().then(() => this.room?.input(draft, to), () => undefined);
  }

  /**
   * The composer lost focus: `paused` now (if `typing` was said). Sending a message says `paused`
   * by itself.
   * @param to - as in {@link Typing.input}
   */
  blur(to?: string): void {
    this.room?.blur(to);
  }

  /** Stops every timer and listener of typing signals. @internal */
  destroy(): void {
    this.destroyed = true;
    this.room?.destroy();
  }
}
