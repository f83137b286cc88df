/**
 * What the client shares with its managers. Each manager declares the slice it needs
 * (`Pick<ClientContext, ...>`), so its dependencies stay narrow and testable.
 * @module
 * @internal
 */
import type { EventEmitter } from 'eventemitter3';
import type { ServerClock } from './clock.js';
import type { ErrorSource, ImClientEvents, NoticeLevel } from './events.js';
import type { PermitApi } from './http/permit-api.js';
import type { I18n, NoticeKey } from './i18n/index.js';
import type { MessageList } from './messages/message-list.js';
import type { ImClientLimits } from './options.js';
import type { SessionState } from './session.js';
import type { Store } from './state/store.js';
import type { TimerProvider } from './timers.js';

/** The client's shared parts and callbacks. @internal */
export interface ClientContext {
  readonly messages: MessageList;
  readonly session: Store<SessionState>;
  /** Where managers emit the client's events. */
  readonly events: Pick<EventEmitter<ImClientEvents>, 'emit'>;
  readonly i18n: Pick<I18n, 't'>;
  readonly clock: ServerClock;
  readonly api: PermitApi;
  readonly limits: Readonly<ImClientLimits>;
  readonly timers: TimerProvider;
  /** The user id the server gave, once known. */
  selfId(): string | undefined;
  /** The client id (uuid kept in storage). */
  clientId(): string;
  /** The connect data in force. */
  connectData(): Readonly<Record<string, unknown>>;
  /** Emits a user-facing notice (its zh text is bundled: a {@link NoticeKey}). */
  notify(key: NoticeKey, level: NoticeLevel): void;
  /** Emits an `error` event (a thrown value that is not an `Error` is wrapped in one). */
  reportError(error: unknown, source: ErrorSource): void;
}
