/**
 * The desk's "Past conversations" view: ended conversations newest first, searched by message
 * text and by visitor, paged; one opens read-only with its whole history (the SDK's
 * `AgentDesk.past` store and calls; this view only reads the store and calls methods).
 * @module
 */
import type { AgentDesk, Transcript } from '@kefu-im/sdk/agent';
import { useI18n } from '@kefu-im/react';
import { useEffect, useId, useState, useSyncExternalStore, type FormEvent, type ReactElement } from 'react';
import { appText } from '../env/app-texts.js';
import { deskText, visitorLabel } from './desk-texts.js';

const TEXT_TYPES: ReadonlySet<number> = new Set([100, 200]);

/** A time as the viewer's locale writes it. */
function when(ms: number | null | undefined, language: string): string {
  return ms ? new Date(ms).toLocaleString(language) : '';
}

/** One conversation read whole, read-only. */
function OpenedConversation({ transcript, onBack }: { transcript: Transcript; onBack: () => void }): ReactElement {
  const { language } = useI18n();
  const { session } = transcript;
  const name = visitorLabel(session.visitorName, session.clientId, language);
  return (
    <article className="past-opened" aria-label={`${name} · ${deskText(language, 'readOnly')}`}>
      <div className="agent-chat-head hairline-bottom">
        <h2>
          {name} <span className="muted">({deskText(language, 'readOnly')})</span>
        </h2>
        <button type="button" className="btn btn-small" onClick={onBack} data-autofocus>
          {deskText(language, 'back')}
        </button>
      </div>
      <ol className="past-messages">
        {transcript.messages
          .filter((m) => TEXT_TYPES.has(m.type))
          .map((m, i) => (
            <li key={m.fp ?? i} className={m.from === session.clientId ? 'from-visitor' : 'from-staff'}>
              <span className="muted">{m.from === session.clientId ? visitorLabel(m.fn ?? '', session.clientId, language) : (m.fn ?? m.from ?? '')}</span> <span>{m.dataContent}</span>
            </li>
          ))}
      </ol>
      <p className="muted past-rating">{session.score ? appText(language, 'deskRating', { score: session.score }) : appText(language, 'deskNotRated')}</p>
    </article>
  );
}

/** The search form, the page and the paging buttons; or the opened conversation. */
export function PastConversations({ desk }: { desk: AgentDesk }): ReactElement {
  const { language } = useI18n();
  const state = useSyncExternalStore(desk.past.store.subscribe, desk.past.store.getSnapshot);
  const [text, setText] = useState(state.search.text);
  const [visitor, setVisitor] = useState(state.search.visitor);
  const ids = { text: useId(), visitor: useId(), title: useId() };
  useEffect(() => {
    if (!desk.past.store.getState().loaded) desk.past.search().catch(() => undefined); // the error is in the store
  }, [desk]);
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    desk.past.search({ text, visitor }).catch(() => undefined);
  };
  if (state.opened) return <OpenedConversation transcript={state.opened} onBack={() => desk.past.close()} />;
  return (
    <section className="past" aria-labelledby={ids.title}>
      <h2 id={ids.title}>{deskText(language, 'pastConversations')}</h2>
      <form className="past-search" role="search" onSubmit={submit}>
        <label htmlFor={ids.text}>{deskText(language, 'searchText')}</label>
        <input id={ids.text} className="field" type="search" value={text} maxLength={200} onChange={(e) => setText(e.target.value)} />
        <label htmlFor={ids.visitor}>{deskText(language, 'searchVisitor')}</label>
        <input id={ids.visitor} className="field" type="search" value={visitor} maxLength={200} onChange={(e) => setVisitor(e.target.value)} />
        <button type="submit" className="btn btn-primary btn-small">
          {deskText(language, 'search')}
        </button>
      </form>
      {state.error && <p role="alert">{state.error}</p>}
      {state.loaded && state.list.length === 0 ? (
        <p className="muted" role="status">
          {deskText(language, 'noPast')}
        </p>
      ) : (
        <ul className="past-list" aria-busy={state.loading}>
          {state.list.map((p) => (
            <li key={p.sessionId}>
              <button type="button" className="session-btn" onClick={() => void desk.past.open(p.sessionId).catch(() => undefined)}>
                <span>{visitorLabel(p.visitorName, p.clientId, language)}</span> <span className="muted">{deskText(language, 'endedAt', { time: when(p.endedAt, language) })}</span>
                {p.score !== null && <span className="muted"> · {appText(language, 'deskRating', { score: p.score })}</span>}
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="past-paging">
        <button type="button" className="btn btn-small" disabled={state.page === 0 || state.loading} onClick={() => void desk.past.previous().catch(() => undefined)}>
          {deskText(language, 'previousPage')}
        </button>
        <span className="muted">{state.page + 1}</span>
        <button type="button" className="btn btn-small" disabled={!state.hasMore || state.loading} onClick={() => void desk.past.next().catch(() => undefined)}>
          {deskText(language, 'nextPage')}
        </button>
      </div>
    </section>
  );
}
