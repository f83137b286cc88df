/**
 * Leave a message (spec §1; `createMsg` type 401) when no agent is available: name (optional),
 * contact and message (required). Sets the client's leave-message flag once sent.
 * @module
 */
import { MessageType } from '@kefu-im/sdk';
import { useI18n, useImClient, useSession } from '@kefu-im/react';
import { useId, useRef, useState, type FormEvent, type ReactElement } from 'react';
import { useChat } from '../chat/conversation.js';
import { Dialog, FormActions } from '../ui/dialog.js';
import { useToast } from '../ui/toaster.js';
import { recordMessage } from './records.js';
import type { ChatDialogProps } from './types.js';
import { appText } from '../env/app-texts.js';

/** The leave-a-message form. */
export default function LeaveMessageDialog({ onClose }: ChatDialogProps): ReactElement {
  const { t, language } = useI18n();
  const client = useImClient();
  const { info } = useChat();
  const toast = useToast();
  // "No agent is online" only when the queue said so, never while an agent serves.
  const queueBusy = useSession((s) => s.busy);
  const [name, setName] = useState('');
  const [contact, setContact] = useState('');
  const [content, setContent] = useState('');
  const [error, setError] = useState<{ field: 'contact' | 'content'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const ids = { hint: useId(), name: useId(), contact: useId(), content: useId(), error: useId() };
  const contactRef = useRef<HTMLInputElement>(null);
  const contentRef = useRef<HTMLTextAreaElement>(null);

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    if (busy) return;
    if (contact.trim() === '') {
      setError({ field: 'contact', text: t('fieldRequired', { field: t('leaveMessageContact') }) });
      contactRef.current?.focus();
      return;
    }
    if (content.trim() === '') {
      setError({ field: 'content', text: t('fieldRequired', { field: t('leaveMessageContent') }) });
      contentRef.current?.focus();
      return;
    }
    setError(null);
    setBusy(true);
    const body = { contact: contact.trim(), content: content.trim(), ...(name.trim() ? { name: name.trim() } : {}) };
    client.api.createMsg(recordMessage(client, info, MessageType.LeaveMessage, body)).then(
      () => {
        client.state.setLeaveMessage(true);
        toast(t('leaveMessageSubmitted'));
        onClose();
      },
      () => {
        setBusy(false);
        toast(t('submitFailed'), 'error');
      },
    );
  };

  const described = (f: 'contact' | 'content'): string | undefined => (error?.field === f ? ids.error : undefined);
  return (
    <Dialog title={t('leaveMessage')} onClose={onClose} closeLabel={t('close')} className="dialog-form" describedBy={ids.hint}>
      <p id={ids.hint} className="muted">
        {queueBusy ? t('leaveMessageHint') : appText(language, 'leaveMessageHintServing')}
      </p>
      <form onSubmit={submit} noValidate>
        <label className="field-label" htmlFor={ids.name}>
          {t('leaveMessageName')} <span className="mark-optional">({t('optional')})</span>
        </label>
        <input id={ids.name} className="field" value={name} maxLength={64} autoComplete="name" onChange={(e) => setName(e.target.value)} />
        <label className="field-label" htmlFor={ids.contact}>
          {t('leaveMessageContact')} <span className="mark-required">({t('required')})</span>
        </label>
        <input ref={contactRef} id={ids.contact} className="field" value={contact} maxLength={128} required aria-invalid={error?.field === 'contact'} aria-describedby={described('contact')} onChange={(e) => setContact(e.target.value)} />
        <label className="field-label" htmlFor={ids.content}>
          {t('leaveMessageContent')} <span className="mark-required">({t('required')})</span>
        </label>
        <textarea ref={contentRef} id={ids.content} className="field" rows={4} maxLength={2000} required value={content} aria-invalid={error?.field === 'content'} aria-describedby={described('content')} onChange={(e) => setContent(e.target.value)} />
        {error && (
          <p className="field-error" id={ids.error}>
            {error.text}
          </p>
        )}
        <FormActions onCancel={onClose} busy={busy} cancelLabel={t('cancel')} submitLabel={t('submit')} />
      </form>
    </Dialog>
  );
}
