/**
 * The conversation's message list: virtualised, older messages loaded on scroll up without the
 * view jumping, and the scroll-to-bottom rule (spec §9): to the bottom when under 400 px from it
 * or for the user's own new message, retried every 100 ms while rows settle.
 * @module
 */
import { MessageType, type StoredMessage } from '@kefu-im/sdk';
import { scrollToBottom } from '@kefu-im/sdk/embed';
import { useI18n, useImClient } from '@kefu-im/react';
import { forwardRef, useCallback, useEffect, useImperativeHandle, useMemo, useRef, useState, type ReactNode, type Ref } from 'react';
import { EndDivider, isEndDivider } from './end-divider.js';
import { MessageRow } from './message-row.js';
import { VirtualList, type VirtualListHandle } from './virtual-list.js';

/** What the chat screen can do with the list. */
export interface MessageListHandle {
  /**
   * Scrolls to the message and highlights it briefly, loading older pages first until it is
   * there (or the history ends, or {@link SEEK_PAGES} pages were loaded).
   */
  reveal(fp: string): void;
  /** Scrolls to the bottom (with the retries of the rule). */
  scrollToBottom(): void;
}

/** Props of {@link MessageList}. */
export interface MessageListProps {
  /** The messages, oldest first. */
  messages: readonly StoredMessage[];
  /** Whether the current user sent a message. */
  isMine: (message: StoredMessage) => boolean;
  /** Whether older history may exist. */
  hasMore: boolean;
  /** Whether a page of history is loading. */
  loading: boolean;
  /** Loads the page before the oldest message (`size` messages; the pager's default when absent). */
  onLoadOlder: (size?: number) => void;
  /** Receives the scroll container (the read-on-scroll root). */
  onRoot: (element: HTMLElement | null) => void;
  /** Accessible name of the list. */
  label: string;
}

/** Most pages loaded to find a message to reveal. */
export const SEEK_PAGES = 30;
/** Messages per page loaded to find a message to reveal. */
const SEEK_PAGE_SIZE = 100;

/** The first row once the whole history is loaded: "no more messages", scrolling with the rows. */
const HISTORY_START = { type: MessageType.SessionEvent, fp: 'history-start' } as StoredMessage;

/** The key of a message row. */
export function messageKey(message: StoredMessage): string {
  return typeof message.fp === 'string' && message.fp !== '' ? message.fp : `${message.type}:${String(message.createTime ?? message.times ?? '')}:${message.dataContent ?? ''}`;
}

function MessageListInner(props: MessageListProps, ref: Ref<MessageListHandle>): ReactNode {
  const { messages, isMine, hasMore, loading, onLoadOlder, onRoot, label } = props;
  const { t } = useI18n();
  const client = useImClient();
  const list = useRef<VirtualListHandle>(null);
  const distance = useRef(0);
  // The scroll position at the last scroll event: `distance` is stale once the view moved since.
  const seenTop = useRef<number | null>(null);
  const cancelRetry = useRef<(() => void) | null>(null);
  const [unseen, setUnseen] = useState(false);
  const [flash, setFlash] = useState<{ fp: string; at: number } | null>(null);
  const { scrollBottomThreshold: threshold, scrollRetryInterval: retryInterval } = client.limits;

  /** The rule (spec §9): to the bottom when forced or under the threshold, retried every 100 ms. */
  const followBottom = useCallback(
    (force: boolean): boolean => {
      const el = list.current?.element();
      if (!el) return false;
      cancelRetry.current?.();
      const { scrolled, cancel } = scrollToBottom(el, { force, threshold, retryInterval });
      cancelRetry.current = cancel;
      if (scrolled) setUnseen(false);
      return scrolled;
    },
    [threshold, retryInterval],
  );
  const stickToBottom = useCallback(() => void followBottom(true), [followBottom]);
  useEffect(() => () => cancelRetry.current?.(), []);

  useEffect(() => {
    onRoot(list.current?.element() ?? null);
    return () => onRoot(null);
  }, [onRoot]);

  // A new last message: apply the rule.
  const last = messages[messages.length - 1];
  const lastKey = last ? messageKey(last) : '';
  useEffect(() => {
    if (!last) return;
    // The distance before this message was added decides (the view was within the threshold),
    // unless the reader scrolled up since it was taken (the scroll event has not come yet).
    const top = list.current?.element()?.scrollTop;
    const movedUp = top !== undefined && seenTop.current !== null && top < seenTop.current - 1;
    const forced = (isMine(last) && last.sendState === 'pending') || (!movedUp && distance.current < threshold);
    if (!followBottom(forced)) setUnseen(true);
    // Only a change of the last row counts, not a change inside it.
  }, [lastKey]);

  // First page on mount, and more while the list does not fill the view.
  useEffect(() => {
    if (messages.length === 0 && hasMore && !loading) onLoadOlder();
  }, [messages.length, hasMore, loading, onLoadOlder]);
  useEffect(() => {
    const el = list.current?.element();
    if (el && hasMore && !loading && messages.length > 0 && el.scrollHeight <= el.clientHeight + 40) onLoadOlder();
  }, [messages, hasMore, loading, onLoadOlder]);

  // A message to reveal: shown once its row is in the list; older pages are loaded until it is.
  const [seeking, setSeeking] = useState<{ fp: string; pages: number } | null>(null);
  useImperativeHandle(
    ref,
    () => ({
      reveal: (fp) => setSeeking({ fp, pages: 0 }),
      scrollToBottom: stickToBottom,
    }),
    [stickToBottom],
  );
  useEffect(() => {
    if (!seeking || loading) return;
    if (list.current?.scrollToKey(seeking.fp)) {
      setFlash({ fp: seeking.fp, at: Date.now() });
      setSeeking(null);
    } else if (hasMore && seeking.pages < SEEK_PAGES) {
      setSeeking({ ...seeking, pages: seeking.pages + 1 });
      onLoadOlder(SEEK_PAGE_SIZE);
    } else {
      setSeeking(null);
    }
  }, [seeking, messages, loading, hasMore, onLoadOlder]);

  // A revealed row: once rendered at its estimated place, centre it exactly; the highlight is a
  // row prop (a class set by hand would be lost on the row's next render).
  useEffect(() => {
    if (!flash) return undefined;
    const frame = requestAnimationFrame(() => {
      list.current?.element()?.querySelector(`[data-fp="${CSS.escape(flash.fp)}"]`)?.scrollIntoView({ block: 'center' });
    });
    const timer = setTimeout(() => setFlash(null), 2_000);
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [flash]);

  const nearTop = useCallback(() => {
    if (hasMore && !loading) onLoadOlder();
  }, [hasMore, loading, onLoadOlder]);
  const scrolled = useCallback((d: number) => {
    distance.current = d;
    seenTop.current = list.current?.element()?.scrollTop ?? null;
    if (d < threshold) setUnseen(false);
  }, [threshold]);
  const renderItem = useCallback(
    (m: StoredMessage) => {
      if (m === HISTORY_START) return <p className="history-start muted">{t('noMoreMessages')}</p>;
      return isEndDivider(m) ? <EndDivider /> : <MessageRow message={m} mine={isMine(m)} highlighted={flash !== null && m.fp === flash.fp} />;
    },
    [isMine, t, flash],
  );
  // "No more messages" is the list's first row (it scrolls away), not a bar over the first message.
  const rows = useMemo(() => (hasMore || messages.length === 0 ? messages : [HISTORY_START, ...messages]), [hasMore, messages]);

  return (
    <div className="list-wrap">
      {hasMore && (
        <div className="list-top">
          <button type="button" className="link-btn" onClick={() => onLoadOlder()} disabled={loading}>
            {loading ? t('loadMore') : t('loadHistory')}
          </button>
        </div>
      )}
      <VirtualList ref={list} items={rows} itemKey={messageKey} renderItem={renderItem} label={label} onNearTop={nearTop} onScrolled={scrolled} />
      {unseen && (
        <button type="button" className="new-msgs" onClick={stickToBottom}>
          {t('newMessages')} ↓
        </button>
      )}
    </div>
  );
}

/** The message list. */
export const MessageList = forwardRef(MessageListInner);
