/**
 * The search box (spec §2): finds the keyword in the loaded messages (choosing one shows it in
 * the list) and in the merchant's questions (`questionLike`; choosing one asks it).
 * @module
 */
import { MessageType, type StoredMessage, type SuggestedQuestion } from '@kefu-im/sdk';
import { formatDateTime } from '@kefu-im/sdk/format';
import { useI18n, useImClient, useMessages } from '@kefu-im/react';
import { useEffect, useId, useMemo, useState, type ReactElement } from 'react';
import { useChat } from '../chat/conversation.js';
import { appText } from '../env/app-texts.js';
import { Dialog } from '../ui/dialog.js';
import type { ChatDialogProps } from './types.js';

/** Most message matches listed. */
const MAX_MATCHES = 50;

/**
 * The loaded text messages that contain `keyword` (case-insensitive), newest first.
 * @param messages - the loaded messages
 * @param keyword - the search text
 */
export function findMessages(messages: readonly StoredMessage[], keyword: string): StoredMessage[] {
  const k = keyword.trim().toLowerCase();
  if (k === '') return [];
  const out: StoredMessage[] = [];
  for (let i = messages.length - 1; i >= 0 && out.length < MAX_MATCHES; i--) {
    const m = messages[i];
    if (!m || (m.type !== MessageType.Text && m.type !== MessageType.RobotText)) continue;
    if ((m.dataContent ?? '').toLowerCase().includes(k)) out.push(m);
  }
  return out;
}

/** The search dialog. */
export default function SearchDialog({ onClose }: ChatDialogProps): ReactElement {
  const { t, language } = useI18n();
  const client = useImClient();
  const { info, ask, reveal } = useChat();
  const { messages } = useMessages();
  const [keyword, setKeyword] = useState('');
  const [questions, setQuestions] = useState<SuggestedQuestion[]>([]);
  const inputId = useId();
  const matches = useMemo(() => findMessages(messages, keyword), [messages, keyword]);

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

  const empty = keyword.trim() !== '' && matches.length === 0 && questions.length === 0;
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
                    {q.question}
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
                  <button type="button" className="result-btn" onClick={() => { onClose(); if (m.fp) setTimeout(() => reveal(m.fp ?? ''), 0); }}>
                    <span className="result-text">{m.dataContent}</span>
                    <span className="muted">{formatDateTime(m.createTime ?? m.times)}</span>
                  </button>
                </li>
              ))}
            </ul>
          </section>
        )}
      </div>
    </Dialog>
  );
}
