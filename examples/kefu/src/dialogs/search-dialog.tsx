/**
 * The search box (spec §2): finds the keyword in the conversation's messages (choosing one shows
 * it in the list, loading older pages until it is there, and highlights it) and in the merchant's
 * questions (`questionLike`; choosing one asks it). The loaded messages are searched at once; the
 * history before them is fetched page by page (read only, the list is left as it is) while a
 * keyword is typed, a few pages at a time. Matches are marked as `<mark>` elements: the message
 * text is only ever text, never HTML.
 * @module
 */
import { MessageType, type ImClient, type MessagePage, type StoredMessage, type SuggestedQuestion } from '@kefu-im/sdk';
import { formatDateTime } from '@kefu-im/sdk/format';
import { useI18n, useImClient, useMessages } from '@kefu-im/react';
import { Fragment, useCallback, useEffect, useId, useMemo, useRef, useState, type ReactElement } from 'react';
import { useChat, type ConversationInfo } from '../chat/conversation.js';
import { shownText } from '../chat/text-keys.js';
import { appText } from '../env/app-texts.js';
import { Dialog } from '../ui/dialog.js';
import type { ChatDialogProps } from './types.js';

/** Most message matches listed. */
const MAX_MATCHES = 50;
/** History pages fetched per round of "search earlier messages" (and when a keyword is first typed). */
export const EARLIER_PAGES = 5;
/** Messages per history page fetched by the search. */
const EARLIER_PAGE_SIZE = 100;

/**
 * The text messages whose shown text contains `keyword` (case-insensitive), newest first, one
 * per fp.
 * @param messages - the messages, oldest first
 * @param keyword - the search text
 * @param language - the interface language (a keyed text is searched as it is shown)
 */
export function findMessages(messages: readonly StoredMessage[], keyword: string, language = 'zh'): StoredMessage[] {
  const k = keyword.trim().toLowerCase();
  if (k === '') return [];
  const out: StoredMessage[] = [];
  const seen = new Set<string>();
  for (let i = messages.length - 1; i >= 0 && out.length < MAX_MATCHES; i--) {
    const m = messages[i];
    if (!m || (m.type !== MessageType.Text && m.type !== MessageType.RobotText)) continue;
    if (m.fp && seen.has(m.fp)) continue;
    if (m.fp) seen.add(m.fp);
    if (shownText(m, language).toLowerCase().includes(k)) out.push(m);
  }
  return out;
}

/**
 * `text` cut into its parts around each case-insensitive occurrence of `keyword`: `match` parts
 * are the occurrences.
 * @param text - the text
 * @param keyword - the search text (trimmed)
 */
export function matchParts(text: string, keyword: string): { text: string; match: boolean }[] {
  const k = keyword.trim().toLowerCase();
  if (k === '') return [{ text, match: false }];
  const lower = text.toLowerCase();
  const parts: { text: string; match: boolean }[] = [];
  let from = 0;
  for (let at = lower.indexOf(k); at !== -1; at = lower.indexOf(k, at + k.length)) {
    if (at > from) parts.push({ text: text.slice(from, at), match: false });
    parts.push({ text: text.slice(at, at + k.length), match: true });
    from = at + k.length;
  }
  if (from < text.length) parts.push({ text: text.slice(from), match: false });
  return parts;
}

/** A text with its matches marked (`<mark>` elements around text nodes). */
function Highlighted({ text, keyword }: { text: string; keyword: string }): ReactElement {
  return (
    <>
      {matchParts(text, keyword).map((part, i) => (part.match ? <mark key={i}>{part.text}</mark> : <Fragment key={i}>{part.text}</Fragment>))}
    </>
  );
}

/** The oldest server time among `messages` (ms), or undefined. */
function oldestTime(messages: readonly StoredMessage[]): number | undefined {
  let oldest: number | undefined;
  for (const m of messages) {
    const t = typeof m.createTime === 'number' ? m.createTime : Number(m.createTime);
    if (Number.isFinite(t) && t > 0 && (oldest === undefined || t < oldest)) oldest = t;
  }
  return oldest;
}

/** One page of the conversation's history before `before`: the group's or the visitor's own. */
function historyPage(client: ImClient, info: ConversationInfo, before: number | undefined): Promise<MessagePage> {
  const window = { ...(before === undefined ? {} : { before }), size: EARLIER_PAGE_SIZE };
  if (info.kind !== 'service' && info.groupId) return client.api.clientGroupMsgList({ clientId: client.clientId, groupId: info.groupId, ...window });
  return client.api.findMsgForCus({ clientId: client.clientId, mchId: info.mchId, platformId: info.platformId, ...window });
}

/** The history before the loaded messages, fetched for the search (not added to the list). */
function useEarlierHistory(loaded: readonly StoredMessage[], listHasMore: boolean): { earlier: StoredMessage[]; more: boolean; busy: boolean; fetchMore: () => void } {
  const client = useImClient();
  const { info } = useChat();
  const [earlier, setEarlier] = useState<StoredMessage[]>([]);
  const [more, setMore] = useState(listHasMore);
  const [busy, setBusy] = useState(false);
  const live = useRef(true);
  useEffect(() => () => void (live.current = false), []);
  const fetchMore = useCallback(() => {
    if (busy || !more) return;
    setBusy(true);
    const run = async (): Promise<void> => {
      let before = oldestTime([...earlier, ...loaded]);
      const found: StoredMessage[] = [];
      let hasMore: boolean = more;
      for (let i = 0; i < EARLIER_PAGES && hasMore; i++) {
        const page = await historyPage(client, info, before);
        found.unshift(...page.list);
        hasMore = page.hasMore && page.list.length > 0;
        before = oldestTime(page.list) ?? before;
      }
      if (!live.current) return;
      setEarlier((list) => [...found, ...list]);
      setMore(hasMore);
    };
    run()
      .catch(() => live.current && setMore(false))
      .finally(() => live.current && setBusy(false));
  }, [busy, more, earlier, loaded, client, info]);
  return { earlier, more, busy, fetchMore };
}

/** The search dialog. */
export default function SearchDialog({ onClose }: ChatDialogProps): ReactElement {
  const { t, language } = useI18n();
  const client = useImClient();
  const { info, ask, reveal } = useChat();
  const { messages, hasMore } = useMessages();
  const [keyword, setKeyword] = useState('');
  const [questions, setQuestions] = useState<SuggestedQuestion[]>([]);
  const inputId = useId();
  const history = useEarlierHistory(messages, hasMore);
  const searched = useMemo(() => [...history.earlier, ...messages], [history.earlier, messages]);
  const matches = useMemo(() => findMessages(searched, keyword, language), [searched, keyword, language]);
  const typed = keyword.trim() !== '';

  useEffect(() => {
    const k = keyword.trim();
    if (k === '') {
      setQuestions([]);
      return undefined;
    }
    let live = true;
    const timer = setTimeout(() => {
      client.api.questionLike({ mchId: info.mchId, platformId: info.platformId, keyword: k }).then(
        (list) => live && setQuestions(list),
        () => live && setQuestions([]),
      );
    }, 300);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [client, info.mchId, info.platformId, keyword]);

  // the first keyword also searches the history before the loaded messages (a few pages)
  const startedEarlier = useRef(false);
  const { fetchMore } = history;
  useEffect(() => {
    if (!typed || startedEarlier.current) return;
    startedEarlier.current = true;
    fetchMore();
  }, [typed, fetchMore]);

  const empty = typed && matches.length === 0 && questions.length === 0 && !history.busy;
  return (
    <Dialog title={t('searchPlaceholder')} onClose={onClose} closeLabel={t('close')} className="dialog-form">
      <label className="visually-hidden" htmlFor={inputId}>
        {t('searchPlaceholder')}
      </label>
      <input id={inputId} className="field" type="search" data-autofocus placeholder={t('searchPlaceholder')} value={keyword} maxLength={200} onChange={(e) => setKeyword(e.target.value)} />
      <div className="search-results" aria-live="polite">
        {empty && <p className="muted">{t('noResults')}</p>}
        {questions.length > 0 && (
          <section>
            <h3>{t('suggestedQuestions')}</h3>
            <ul>
              {questions.map((q) => (
                <li key={String(q.id)}>
                  <button type="button" className="link-btn" onClick={() => { ask(q.id); onClose(); }}>
                    <Highlighted text={q.question} keyword={keyword} />
                  </button>
                </li>
              ))}
            </ul>
          </section>
        )}
        {matches.length > 0 && (
          <section>
            <h3>{appText(language, 'messages')}</h3>
            <ul>
              {matches.map((m) => (
                <li key={m.fp ?? `${m.createTime}`}>
                  <button type="button" className="result-btn" onClick={() => { onClose(); if (m.fp) reveal(m.fp); }}>
                    <span className="result-text">
                      <Highlighted text={shownText(m, language)} keyword={keyword} />
                    </span>
                    <span className="muted">{formatDateTime(m.createTime ?? m.times)}</span>
                  </button>
                </li>
              ))}
            </ul>
          </section>
        )}
        {typed && history.busy && <p className="muted">{appText(language, 'searchingEarlier')}</p>}
        {typed && !history.busy && history.more && (
          <button type="button" className="link-btn search-earlier" onClick={history.fetchMore}>
            {appText(language, 'searchEarlier')}
          </button>
        )}
      </div>
    </Dialog>
  );
}
