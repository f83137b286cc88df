/**
 * The desk's canned replies, managed (desk issue, "managed in the desk"): a merchant's replies
 * listed by shortcut, each with edit and remove (remove asks first), and a form for a new one.
 * The server's rules (sizes, the shortcut's form, a shortcut another reply has) are checked
 * before asking, so that the agent reads them in its language; a refusal the server still
 * gives (another agent took the shortcut meanwhile) is shown as it comes. Only the SDK desk's
 * `canned` store and calls are used.
 * @module
 */
import { cannedReplyProblem, MAX_CANNED_TEXT, MAX_CANNED_TITLE, type AgentDesk, type CannedProblem, type CannedReply } from '@kefu-im/sdk/agent';
import { useI18n } from '@kefu-im/react';
import { useEffect, useId, useRef, useState, useSyncExternalStore, type FormEvent, type ReactElement } from 'react';
import { useDeskStatus } from './desk-routing.js';
import { deskText, type DeskTextKey } from './desk-texts.js';

const PROBLEM_TEXT: Readonly<Record<CannedProblem, DeskTextKey>> = {
  title: 'problemTitle',
  text: 'problemText',
  shortcut: 'problemShortcut',
  shortcutTaken: 'problemShortcutTaken',
};

/** The field a problem is about. */
const PROBLEM_FIELD: Readonly<Record<CannedProblem, keyof Draft>> = { title: 'title', text: 'text', shortcut: 'shortcut', shortcutTaken: 'shortcut' };

/** The fields of a reply as the agent types them. */
interface Draft {
  title: string;
  text: string;
  shortcut: string;
}

const EMPTY: Draft = { title: '', text: '', shortcut: '' };

/** The add or edit form of one reply. */
function CannedForm({ desk, mchId, editing, onDone, onCancel }: { desk: AgentDesk; mchId: string; editing?: CannedReply; onDone: (reply: CannedReply) => void; onCancel?: () => void }): ReactElement {
  const { language } = useI18n();
  const [draft, setDraft] = useState<Draft>(editing ? { title: editing.title, text: editing.text, shortcut: editing.shortcut } : EMPTY);
  const [error, setError] = useState('');
  const [invalid, setInvalid] = useState<keyof Draft | null>(null);
  const [busy, setBusy] = useState(false);
  const ids = { title: useId(), text: useId(), shortcut: useId(), hint: useId(), error: useId(), heading: useId() };
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (editing) first.current?.focus();
  }, [editing]);
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    if (busy) return;
    const input = { mchId, ...draft };
    const problem = cannedReplyProblem(input, desk.canned.replies(mchId), editing?.id);
    if (problem) {
      setError(deskText(language, PROBLEM_TEXT[problem], { shortcut: draft.shortcut.trim().replace(/^\//, '') }));
      setInvalid(PROBLEM_FIELD[problem]);
      document.getElementById(ids[PROBLEM_FIELD[problem]])?.focus();
      return;
    }
    setError('');
    setInvalid(null);
    setBusy(true);
    const call = editing ? desk.canned.update({ ...input, id: editing.id }) : desk.canned.add(input);
    call.then(
      (reply) => {
        setBusy(false);
        if (!editing) setDraft(EMPTY);
        onDone(reply);
      },
      (failure: unknown) => {
        setBusy(false);
        setError(deskText(language, 'cannedFailed', { message: failure instanceof Error ? failure.message : String(failure) }));
      },
    );
  };
  const field = (key: keyof Draft) => ({
    value: draft[key],
    onChange: (e: { target: { value: string } }) => {
      setDraft((d) => ({ ...d, [key]: e.target.value }));
      if (invalid === key) {
        setInvalid(null); // the agent is fixing it
        setError('');
      }
    },
    'aria-invalid': invalid === key ? true : undefined,
    'aria-describedby': invalid === key ? ids.error : undefined,
  });
  return (
    <form className="canned-form" onSubmit={submit} noValidate aria-labelledby={ids.heading}>
      <h3 id={ids.heading}>{editing ? deskText(language, 'cannedEditing', { shortcut: editing.shortcut }) : deskText(language, 'cannedNew')}</h3>
      <label htmlFor={ids.shortcut}>{deskText(language, 'shortcut')}</label>
      <input id={ids.shortcut} ref={first} className="field" maxLength={33} autoComplete="off" {...field('shortcut')} aria-describedby={[ids.hint, invalid === 'shortcut' ? ids.error : ''].filter(Boolean).join(' ')} />
      <p id={ids.hint} className="muted canned-hint">
        {deskText(language, 'shortcutHint')}
      </p>
      <label htmlFor={ids.title}>{deskText(language, 'title')}</label>
      <input id={ids.title} className="field" maxLength={MAX_CANNED_TITLE} autoComplete="off" {...field('title')} />
      <label htmlFor={ids.text}>{deskText(language, 'text')}</label>
      <textarea id={ids.text} className="field" rows={3} maxLength={MAX_CANNED_TEXT} {...field('text')} />
      {error !== '' && (
        <p id={ids.error} className="field-error" role="alert">
          {error}
        </p>
      )}
      <div className="canned-actions">
        <button type="submit" className="btn btn-primary btn-small" disabled={busy}>
          {editing ? deskText(language, 'save') : deskText(language, 'add')}
        </button>
        {onCancel && (
          <button type="button" className="btn btn-small" onClick={onCancel}>
            {deskText(language, 'cancel')}
          </button>
        )}
      </div>
    </form>
  );
}

/** One reply: what it says, edit, remove (asked first). */
function CannedRow({ desk, reply, onSaved, onRemoved }: { desk: AgentDesk; reply: CannedReply; onSaved: (reply: CannedReply) => void; onRemoved: (reply: CannedReply) => void }): ReactElement {
  const { language } = useI18n();
  const [mode, setMode] = useState<'show' | 'edit' | 'confirm'>('show');
  const [error, setError] = useState('');
  const editButton = useRef<HTMLButtonElement>(null);
  const keep = useRef<HTMLButtonElement>(null);
  const returning = useRef(false);
  const back = (): void => {
    returning.current = true; // focus goes back to the row's edit button once it shows again
    setMode('show');
  };
  useEffect(() => {
    if (mode === 'confirm') keep.current?.focus(); // the safe choice first
    if (mode === 'show' && returning.current) {
      returning.current = false;
      editButton.current?.focus();
    }
  }, [mode]);
  if (mode === 'edit') {
    return (
      <li className="canned-row is-editing">
        <CannedForm
          desk={desk}
          mchId={reply.mchId}
          editing={reply}
          onDone={(saved) => {
            onSaved(saved);
            back();
          }}
          onCancel={back}
        />
      </li>
    );
  }
  const remove = (): void => {
    desk.canned.remove(reply.mchId, reply.id).then(
      () => onRemoved(reply),
      (failure: unknown) => setError(deskText(language, 'cannedFailed', { message: failure instanceof Error ? failure.message : String(failure) })),
    );
  };
  return (
    <li className="canned-row">
      <div className="canned-what">
        <span className="canned-shortcut">/{reply.shortcut}</span> <span className="canned-title">{reply.title}</span>
        <p className="canned-full muted">{reply.text}</p>
      </div>
      {mode === 'confirm' ? (
        <div className="canned-confirm" role="group" aria-label={deskText(language, 'removeConfirm', { shortcut: reply.shortcut })}>
          <span>{deskText(language, 'removeConfirm', { shortcut: reply.shortcut })}</span>
          <button type="button" ref={keep} className="btn btn-small" onClick={back}>
            {deskText(language, 'cancel')}
          </button>
          <button type="button" className="btn btn-small btn-danger" onClick={remove}>
            {deskText(language, 'remove')}
          </button>
        </div>
      ) : (
        <div className="canned-actions">
          <button type="button" ref={editButton} className="btn btn-small" onClick={() => setMode('edit')} aria-label={deskText(language, 'cannedEditing', { shortcut: reply.shortcut })}>
            {deskText(language, 'edit')}
          </button>
          <button type="button" className="btn btn-small" onClick={() => setMode('confirm')} aria-label={`${deskText(language, 'remove')} /${reply.shortcut}`}>
            {deskText(language, 'remove')}
          </button>
        </div>
      )}
      {error !== '' && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </li>
  );
}

/** Props of {@link CannedManager}. */
export interface CannedManagerProps {
  /** The agent's desk: its merchants (`desk.status`, from the server) are offered in the merchant field. */
  desk: AgentDesk;
}

/** The canned replies of one merchant, managed. */
export function CannedManager({ desk }: CannedManagerProps): ReactElement {
  const { language } = useI18n();
  const state = useSyncExternalStore(desk.canned.store.subscribe, desk.canned.store.getSnapshot);
  const { merchants } = useDeskStatus(desk); // the agent's merchants as the server says (AGENT_MERCHANTS)
  const [typed, setTyped] = useState(merchants[0] ?? '');
  const [mchId, setMchId] = useState(merchants[0] ?? '');
  const first = merchants[0] ?? '';
  const prefilled = useRef(first !== '');
  useEffect(() => {
    // the server's word came after the manager opened: its first merchant, once
    if (prefilled.current || first === '') return;
    prefilled.current = true;
    setTyped((t) => (t === '' ? first : t));
    setMchId((m) => (m === '' ? first : m));
  }, [first]);
  const [announcement, setAnnouncement] = useState('');
  const ids = { title: useId(), merchant: useId(), list: useId() };
  const heading = useRef<HTMLHeadingElement>(null);
  const replies = mchId === '' ? undefined : state.byMerchant[mchId];
  useEffect(() => {
    if (mchId !== '') desk.canned.load(mchId).catch(() => undefined); // the error is in the store
  }, [desk, mchId]);
  const show = (event: FormEvent): void => {
    event.preventDefault();
    setMchId(typed.trim());
  };
  return (
    <section className="canned-manager" aria-labelledby={ids.title}>
      <h2 id={ids.title} ref={heading} tabIndex={-1}>
        {deskText(language, 'cannedReplies')}
      </h2>
      <form className="canned-merchant" onSubmit={show}>
        <label htmlFor={ids.merchant}>{deskText(language, 'merchantId')}</label>
        <input id={ids.merchant} className="field" list={ids.list} value={typed} maxLength={64} autoComplete="off" onChange={(e) => setTyped(e.target.value)} />
        <datalist id={ids.list}>
          {merchants.map((m) => (
            <option key={m} value={m} />
          ))}
        </datalist>
        <button type="submit" className="btn btn-small">
          {deskText(language, 'show')}
        </button>
      </form>
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
      {state.error && replies === undefined && (
        <p className="field-error" role="alert">
          {state.error}
        </p>
      )}
      {mchId !== '' && replies !== undefined && (
        <>
          {replies.length === 0 ? (
            <p className="muted">{deskText(language, 'cannedEmpty')}</p>
          ) : (
            <ul className="canned-list">
              {replies.map((reply) => (
                <CannedRow
                  key={reply.id}
                  desk={desk}
                  reply={reply}
                  onSaved={(saved) => setAnnouncement(deskText(language, 'saved', { shortcut: saved.shortcut }))}
                  onRemoved={(removed) => {
                    setAnnouncement(deskText(language, 'removed', { shortcut: removed.shortcut }));
                    heading.current?.focus(); // its row is gone
                  }}
                />
              ))}
            </ul>
          )}
          <CannedForm desk={desk} mchId={mchId} onDone={(added) => setAnnouncement(deskText(language, 'saved', { shortcut: added.shortcut }))} />
        </>
      )}
    </section>
  );
}
