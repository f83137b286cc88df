/**
 * `@kefu-im/react`: React bindings for `@kefu-im/sdk`. The SDK owns all state and logic; the
 * bindings subscribe to its stores (`useSyncExternalStore`) and forward calls.
 *
 * Start with {@link ImProvider}, then read state with the hooks.
 * @packageDocumentation
 */

export { ImProvider } from './provider.js';
export type { ImProviderBaseProps, ImProviderClientProps, ImProviderOptionsProps, ImProviderProps } from './provider.js';
export { useImClient } from './context.js';
export { shallowEqual, useStoreSelector } from './store-selector.js';
export type { EqualityFn, ExternalStore } from './store-selector.js';
export { useConnection } from './use-connection.js';
export type { ConnectionSnapshot } from './use-connection.js';
export { useMessage, useMessages } from './use-messages.js';
export type { PagingSnapshot, UseMessagesResult } from './use-messages.js';
export { useSend, useSendState } from './use-send.js';
export type { SendActions, SendOptions, SendStatus } from './use-send.js';
export { useReadOnScroll } from './use-read-on-scroll.js';
export type { UseReadOnScrollOptions } from './use-read-on-scroll.js';
export { useReceiptStatus, useVisibility } from './use-visibility.js';
export { useUnread } from './use-unread.js';
export { useUploader } from './use-uploader.js';
export type { UseUploaderOptions, UseUploaderResult } from './use-uploader.js';
export { useServerClock } from './use-clock.js';
export { useI18n } from './use-i18n.js';
export type { UseI18nResult } from './use-i18n.js';
export { useClientState, useMerchantInfo, useSession } from './use-client-state.js';
export { useAvailability } from './use-availability.js';
export type { AvailabilitySnapshot } from './use-availability.js';
export { useImEvent, useNotice, useNotices } from './use-events.js';
export { useDraft } from './use-draft.js';
export { useTyping } from './use-typing.js';
export type { TypingIndicator } from './use-typing.js';
export type { ImEventListener, UseNoticeResult } from './use-events.js';
export { useAgentHistory, useAgentQueue } from './use-agent-desk.js';
export type { UseAgentHistoryResult } from './use-agent-desk.js';
