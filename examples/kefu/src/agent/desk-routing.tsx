/**
 * The desk's status and transfer controls (desk issue "the desk runs a real support team"): the
 * agent's status switch (available / away) with its load in the header, and the transfer form in
 * a conversation's head (an available agent, an optional note the visitor does not see). Both
 * only read the SDK desk's `status` store and call its methods.
 * @module
 */
import type { AgentDesk, AgentStatus, DeskStatusState, TransferRefusal } from '@kefu-im/sdk/agent';
import { useI18n } from '@kefu-im/react';
import { useId, useState, useSyncExternalStore, type FormEvent, type ReactElement } from 'react';
import { appText, type AppTextKey } from '../env/app-texts.js';

/** What the desk says when a transfer is refused, by reason. */
const REFUSED: Partial<Record<TransferRefusal, AppTextKey>> = { 'at-capacity': 'deskTransferAtCapacity', 'agent-away': 'deskTransferAway', 'agent-offline': 'deskTransferOffline' };

/** The desk's status store, for React. */
export function useDeskStatus(desk: AgentDesk): DeskStatusState {
  return useSyncExternalStore(desk.status.subscribe, desk.status.getSnapshot);
}

/** The agent's status switch and load, for the desk header. */
export function StatusSwitch({ desk }: { desk: AgentDesk }): ReactElement {
  const { language } = useI18n();
  const { status, open, capacity } = useDeskStatus(desk);
  const id = useId();
  return (
    <span className="desk-status">
      <label htmlFor={id}>{appText(language, 'deskStatus')}</label>{' '}
      <select id={id} className={`desk-status-select is-${status}`} value={status} onChange={(e) => desk.setStatus(e.target.value === 'away' ? 'away' : 'available')}>
        {(['available', 'away'] as const satisfies readonly AgentStatus[]).map((s) => (
          <option key={s} value={s}>
            {appText(language, s === 'available' ? 'deskAvailable' : 'deskAway')}
          </option>
        ))}
      </select>
      {capacity > 0 && <span className="muted"> {appText(language, 'deskLoad', { open, capacity })}</span>}
    </span>
  );
}

/** Who transferred the conversation here, with the note, if it came from another agent. */
export function TransferredNote({ desk, clientId }: { desk: AgentDesk; clientId: string }): ReactElement | null {
  const { language } = useI18n();
  const note = useDeskStatus(desk).notes[clientId];
  if (!note) return null;
  return (
    <p className="desk-transfer-note" role="note">
      {appText(language, 'deskTransferredFrom', { name: note.from.name })}
      {note.note ? ` · “${note.note}”` : ''}
    </p>
  );
}

/**
 * The transfer control of an open conversation: pick an available agent of the conversation's
 * merchant (its load shown: one at capacity refuses, and the desk says so), add a note, transfer.
 */
export function TransferControl({ desk, clientId, mchId }: { desk: AgentDesk; clientId: string; mchId?: string }): ReactElement {
  const { language } = useI18n();
  const targets = useDeskStatus(desk).others.filter((a) => a.status === 'available' && (mchId === undefined || a.merchants.length === 0 || a.merchants.includes(mchId)));
  const [opened, setOpened] = useState(false);
  const [to, setTo] = useState('');
  const [note, setNote] = useState('');
  const ids = { form: useId(), to: useId(), note: useId() };
  const chosen = targets.some((a) => a.id === to) ? to : (targets[0]?.id ?? '');
  const last = useSyncExternalStore(desk.transfers.store.subscribe, desk.transfers.store.getSnapshot).last;
  const refused = last?.clientId === clientId && last.state === 'refused' ? appText(language, (last.reason && REFUSED[last.reason]) ?? 'deskTransferFailed') : null;
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    if (chosen === '') return;
    // done: the conversation turns read-only (transferred); refused: the reason shows below
    desk.transfer(clientId, chosen, note).then(() => setNote(''), () => setOpened(true));
  };
  return (
    <div className="desk-transfer">
      <button type="button" className="btn btn-small" aria-expanded={opened} aria-controls={ids.form} onClick={() => setOpened(!opened)}>
        {appText(language, 'deskTransfer')}
      </button>
      {refused !== null && (
        <p className="field-error" role="alert">
          {refused}
        </p>
      )}
      {opened && (
        <form id={ids.form} className="desk-transfer-form" onSubmit={submit}>
          {targets.length === 0 ? (
            <p className="muted" role="status">{appText(language, 'deskNoTransferTarget')}</p>
          ) : (
            <>
              <label htmlFor={ids.to}>{appText(language, 'deskTransferTo')}</label>
              <select id={ids.to} value={chosen} onChange={(e) => setTo(e.target.value)}>
                {targets.map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.name} ({appText(language, 'deskLoad', { open: a.open, capacity: a.capacity })})
                  </option>
                ))}
              </select>
              <label htmlFor={ids.note}>{appText(language, 'deskTransferNote')}</label>
              <textarea id={ids.note} rows={2} maxLength={500} value={note} onChange={(e) => setNote(e.target.value)} />
              <button type="submit" className="btn btn-primary btn-small">
                {appText(language, 'deskTransfer')}
              </button>
            </>
          )}
        </form>
      )}
    </div>
  );
}
