/**
 * `@kefu-im/sdk`: a headless, framework-agnostic customer-service chat client.
 *
 * Start with {@link ImClient}. More entry points: `@kefu-im/sdk/format` (a message's display
 * tokens and times, the content parsers), `@kefu-im/sdk/embed` (entry links, deep links, open-app,
 * launch message, layout), `@kefu-im/sdk/agent` (the agent desk),
 * `@kefu-im/sdk/protocol` (crypto, connect parameters and the frame codec, for bots, servers and tests)
 * and `@kefu-im/sdk/codes` (the socket close codes and the API error codes).
 * @packageDocumentation
 */

// The client and its options and events
export { ImClient, ImError } from './client.js';
export type { Typing } from './typing/typing.js';
export type { TypingIndicator, TypingSnapshot } from './typing/types.js';
export type { SendInput } from './client.js';
export type { ImErrorCode } from './errors.js';
export {
  DEFAULT_DEEP_LINKS,
  DEFAULT_LIMITS,
  DEFAULT_OUTBOX_FILE_CAP,
  DEFAULT_RECEIPT_OPTIONS,
  fixedDelayPolicy,
} from './options.js';
export type {
  DeepLinkOptions,
  DocumentLike,
  IdentityTokenSource,
  ImClientLimits,
  ImClientOptions,
  ReceiptOptions,
  ReconnectContext,
  ReconnectDelayFn,
  ReconnectPolicy,
  ReconnectPolicyObject,
  SocketEventHandler,
  StorageLike,
  WebSocketConstructor,
  WebSocketLike,
  WindowLike,
} from './options.js';
export type { ConnectionState, ErrorSource, IdentityChange, IdentityTokenRefusal, ImClientEventName, ImClientEvents, Notice, NoticeLevel } from './events.js';
export type { IdentityInput } from './identity-switch.js';
export { DefaultReconnectPolicy } from './socket/reconnect-policy.js';
export type { DefaultReconnectPolicyOptions } from './socket/reconnect-policy.js';
export { INITIAL_CONNECTION_SNAPSHOT } from './socket/connection-snapshot.js';
export type { ConnectionSnapshot, HaltReason, ReadonlyStore } from './socket/connection-snapshot.js';
// The codes as values, and the API error codes too, are also in `@kefu-im/sdk/codes`.
export { CloseCode } from './codes.js';
export type { ApiErrorCode, KnownCloseCode, ServerCloseCode } from './codes.js';
export { defaultTimers } from './timers.js';
export type { Disposer, ListenerTarget, TimerHandle, TimerProvider } from './timers.js';
export type { KeySession, StartupResult } from './startup.js';
export { INITIAL_SESSION } from './session.js';
export type { AvailabilityStore } from './presence/availability.js';
export { INITIAL_AVAILABILITY } from './presence/types.js';
export type { AvailabilitySnapshot, QueueEstimate, UnavailableAnswer, UnavailableReason } from './presence/types.js';
export type { SessionState, SessionStatus } from './session.js';

// Entry links (decodeEntryParams and the rest) are in `@kefu-im/sdk/embed`: their base64url and
// UTF-8 codecs stay out of start-up.

// HTTP and the permit API
export { ApiError, isCancelledError, RequestCancelledError, RequestTimeoutError } from './http/errors.js';
export type { ApiErrorInit } from './http/errors.js';
export { HttpClient } from './http/http-client.js';
export type { ApiEnvelope, HttpClientOptions, HttpSession, QueryValue, RequestOptions } from './http/http-client.js';
export { PermitApi } from './http/permit-api.js';
export type {
  DepositCard,
  FaqCategory,
  GroupHistoryQuery,
  GroupInfo,
  GroupInfoQuery,
  GroupUser,
  GroupUsersQuery,
  HistoryQuery,
  Id,
  MerchantInfo,
  MerchantQuery,
  MessagePage,
  OrderQuery,
  PageWindow,
  PlatformCheck,
  PublicConfig,
  QuestionAnswer,
  QuestionLikeQuery,
  QuestionQuery,
  ScoreInput,
  ScoreResult,
  TranslateOptions,
  TranslateResult,
  TriggerUpdateQuery,
  TriggerUpdateResult,
  UserTokenResult,
} from './http/types.js';

// Socket
export { FrameError } from './socket/frame-encode.js';
export { ServerClock } from './clock.js';
export type { ServerClockOptions } from './clock.js';

// Receipts
export { VisibilityTracker } from './receipts/visibility.js';
export type {
  VisibilityChange,
  VisibilityDocumentLike,
  VisibilityListener,
  VisibilityLogEntry,
  VisibilitySource,
  VisibilityState,
  VisibilityStatus,
  VisibilityTrackerOptions,
} from './receipts/visibility.js';
export { ReceiptManager, SOCKET_REQUIRED_ERROR } from './receipts/receipt-manager.js';
export type { ReceiptManagerOptions, ReceiptOutcome, ReceiptSocket, ReceiptStatus, ReceiptVisibilitySource } from './receipts/receipt-manager.js';
export { buildReceipt } from './receipts/receipt.js';
export type { BuildReceiptOptions } from './receipts/receipt.js';
// observeReadOnScroll and shouldMarkReadOnScroll (a UI's part) are in `@kefu-im/sdk/format`.
export type {
  IntersectionEntryLike,
  IntersectionObserverConstructorLike,
  IntersectionObserverLike,
  ReadOnScrollOptions,
} from './receipts/read-on-scroll.js';

// Messages
export { MessageType } from './messages/types.js';
export type {
  AgentQueueSnapshot,
  AgentSession,
  ChatMessage,
  FailReason,
  FileContent,
  GroupReadEntry,
  KnownMessageType,
  QueueEntry,
  AgentInfo,
  RefusalReason,
  SendFailReason,
  SendState,
  SessionEvent,
  SessionEventName,
  StoredMessage,
  SuggestedQuestion,
} from './messages/types.js';
export { MessageList } from './messages/message-list.js';
export { indexedDbOutboxStorage, memoryOutboxStorage, OUTBOX_DB, resolveOutboxStorage } from './outbox/storage.js';
export type { OutboxRecord, OutboxStorage, PendingFile } from './outbox/storage.js';
export type { FileKind } from './outbox/file-message.js';
export { HistoryPager } from './messages/history.js';
export type { CatchUpMark, PagingSnapshot } from './messages/history.js';
export { toMillis } from './messages/time.js';
export type { TimeInput } from './messages/time.js';
// The content parsers (isChatType, messageTimeMs, parseFileContent, parseSessionEvent, ...) are
// in `@kefu-im/sdk/format`.

// State
export { UnreadStore } from './unread/unread-store.js';
export type { UnreadSnapshot } from './unread/unread-store.js';
export { createStore } from './state/store.js';
export type { StateUpdate, Store, StoreListener } from './state/store.js';
export { Listeners, Subscribable } from './state/subscribable.js';
export type { AnyListener, ListenersOptions } from './state/subscribable.js';
export { memoryStorage, resolveStorage } from './state/storage.js';
export { Drafts, DRAFTS_KEY_PREFIX, MAX_DRAFT_LENGTH, MAX_DRAFTS } from './state/drafts.js';
export type { DraftsSnapshot } from './state/drafts.js';
export { CLIENT_STATE_KEYS, createClientState, NO_LANGUAGE } from './state/client-state.js';
export type { ClientState, ClientStateOptions, ClientStateStore, StoredIdentity } from './state/client-state.js';

// i18n
// The catalogues (zh too) load on demand: `loadCatalogue('zh')` gives the zh texts.
export { FALLBACK_LANGUAGE, I18n, interpolate, isLanguage, loadCatalogue, normalizeLanguage, SUPPORTED_LANGUAGES } from './i18n/index.js';
export type { Catalogue, CatalogueLoader, I18nKey, I18nOptions, I18nParams, I18nSnapshot, Language, NoticeKey } from './i18n/index.js';

// Uploads: the queue and its helpers are in `@kefu-im/sdk/upload`; the root keeps the types of the
// transfer (the permit API implements UploadTransport) and of what `sendFile` takes.
export type * from './upload/types.js';

// Tabs: one socket per visitor per browser (docs/tabs.md)
export type { TabOptions, TabRole, LockManagerLike, BroadcastChannelConstructor, BroadcastChannelLike } from './tabs/tab-link.js';
export type { LockRequestOptionsLike } from './tabs/leader-election.js';
