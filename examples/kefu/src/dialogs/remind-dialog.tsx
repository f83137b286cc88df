/**
 * The picker of people to remind in a group (spec §2), from `getGroupUserList`.
 * @module
 */
import type { GroupUser } from '@kefu-im/sdk';
import { useI18n, useImClient } from '@kefu-im/react';
import { useEffect, useState, type ReactElement } from 'react';
import { usableImageUrl } from '../chat/message-body.js';
import { Dialog } from '../ui/dialog.js';

/** Props of {@link RemindDialog}. */
export interface RemindDialogProps {
  /** The group. */
  groupId: string;
  /** Called with the chosen people. */
  onPick: (users: GroupUser[]) => void;
  /** Closes without choosing. */
  onClose: () => void;
}

/** The remind picker. */
export default function RemindDialog({ groupId, onPick, onClose }: RemindDialogProps): ReactElement {
  const { t } = useI18n();
  const client = useImClient();
  const [users, setUsers] = useState<GroupUser[] | null>(null);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  useEffect(() => {
    let live = true;
    client.api.getGroupUserList({ groupId }).then(
      (list) => live && setUsers(list.filter((u) => u.clientId !== client.clientId)),
      () => live && setUsers([]),
    );
    return () => {
      live = false;
    };
  }, [client, groupId]);
  const toggle = (id: string): void =>
    setChosen((set) => {
      const next = new Set(set);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  return (
    <Dialog title={t('remindPeople')} onClose={onClose} closeLabel={t('close')} className="dialog-form">
      {users === null ? (
        <p className="muted">{t('connecting')}</p>
      ) : users.length === 0 ? (
        <p className="muted">{t('noResults')}</p>
      ) : (
        <fieldset className="people">
          <legend className="visually-hidden">{t('remindPeople')}</legend>
          {users.map((u) => {
            const avatar = usableImageUrl(u.avatar);
            return (
              <label key={u.clientId} className="person">
                <input type="checkbox" checked={chosen.has(u.clientId)} onChange={() => toggle(u.clientId)} />
                {avatar ? <img className="avatar" src={avatar} alt="" /> : <span className="avatar avatar-letter" aria-hidden="true">{Array.from(u.name)[0] ?? '?'}</span>}
                <span>{u.name}</span>
                {u.role === 'staff' && <span className="badge">{t('agent')}</span>}
              </label>
            );
          })}
        </fieldset>
      )}
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={onClose}>
          {t('cancel')}
        </button>
        <button type="button" className="btn btn-primary" disabled={chosen.size === 0} onClick={() => onPick((users ?? []).filter((u) => chosen.has(u.clientId)))}>
          {t('confirm')}
        </button>
      </div>
    </Dialog>
  );
}
