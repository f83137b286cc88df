/**
 * The complaint form (spec §3, §5): member account or phone, description, time of occurrence,
 * up to 5 images and 1 video, each field marked required or optional. Attachments upload as soon
 * as they are chosen; on submit the complaint is sent with `createMsg` type 400.
 * @module
 */
import { MessageType, type UploadItem } from '@kefu-im/sdk';
import { checkComplaintAttachments } from '@kefu-im/sdk/upload';
import { useI18n, useImClient, useUploader } from '@kefu-im/react';
import { useId, useRef, useState, type FormEvent, type ReactElement } from 'react';
import { useChat } from '../chat/conversation.js';
import { UploadTray } from '../chat/upload-tray.js';
import { Dialog, FormActions } from '../ui/dialog.js';
import { useToast } from '../ui/toaster.js';
import { localDateTimeMs, recordMessage, toLocalDateTime } from './records.js';
import type { ChatDialogProps } from './types.js';

type Field = 'account' | 'description' | 'time';

function prefillAccount(json: Record<string, unknown> | null): string {
  for (const key of ['account', 'phone', 'member']) {
    const v = json?.[key];
    if (typeof v === 'string' || typeof v === 'number') return String(v).slice(0, 64);
  }
  return '';
}

function count(items: readonly UploadItem[]): { images: number; videos: number } {
  return { images: items.filter((i) => i.kind === 'image').length, videos: items.filter((i) => i.kind === 'video').length };
}

/** The complaint form. */
export default function ComplaintDialog({ onClose }: ChatDialogProps): ReactElement {
  const { t } = useI18n();
  const client = useImClient();
  const { info } = useChat();
  const toast = useToast();
  const maxImages = client.limits.complaintMaxImages;
  const maxVideos = client.limits.complaintMaxVideos;
  const [account, setAccount] = useState(() => prefillAccount(info.query.json));
  const [description, setDescription] = useState('');
  const [time, setTime] = useState(() => toLocalDateTime(client.clock.now()));
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [busy, setBusy] = useState(false);
  const uploads = useUploader({ accept: 'image/*,video/*', autoStart: true });
  const ids = { account: useId(), description: useId(), time: useId(), images: useId(), video: useId() };
  const refs = { account: useRef<HTMLInputElement>(null), description: useRef<HTMLTextAreaElement>(null), time: useRef<HTMLInputElement>(null) };

  const addFiles = (files: FileList | null, kind: 'image' | 'video'): void => {
    if (!files || files.length === 0) return;
    const picked = Array.from(files).filter((f) => (kind === 'image' ? f.type.startsWith('image/') : f.type.startsWith('video/')));
    const check = checkComplaintAttachments(picked, { maxImages, maxVideos }, count(uploads.items));
    if (check.errors.length > 0) toast(t('tooManyFiles', { max: kind === 'image' ? maxImages : maxVideos }), 'warning');
    if (check.accepted.length > 0) uploads.add(check.accepted);
  };

  const validate = (): Partial<Record<Field, string>> => {
    const out: Partial<Record<Field, string>> = {};
    if (account.trim() === '') out.account = t('fieldRequired', { field: t('complaintAccount') });
    if (description.trim() === '') out.description = t('fieldRequired', { field: t('complaintDescription') });
    if (!Number.isFinite(localDateTimeMs(time))) out.time = t('fieldRequired', { field: t('complaintTime') });
    return out;
  };

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    if (busy) return;
    const found = validate();
    setErrors(found);
    const first = (['account', 'description', 'time'] as const).find((f) => found[f]);
    if (first) {
      refs[first].current?.focus();
      return;
    }
    setBusy(true);
    try {
      const done = await Promise.all(uploads.items.map((i) => (i.status === 'failed' ? uploads.retry(i.id) : uploads.start(i.id))));
      if (done.some((i) => !i || i.status !== 'done')) {
        toast(t('uploadFailed'), 'error');
        return;
      }
      const finished = done.filter((i): i is UploadItem => i !== null);
      const video = finished.find((i) => i.kind === 'video')?.url;
      const content = {
        account: account.trim(),
        description: description.trim(),
        occurredAt: localDateTimeMs(time),
        images: finished.filter((i) => i.kind === 'image').map((i) => i.url),
        ...(video ? { video } : {}),
      };
      await client.api.createMsg(recordMessage(client, info, MessageType.Complaint, content));
      toast(t('complaintSubmitted'));
      onClose();
    } catch {
      toast(t('submitFailed'), 'error');
    } finally {
      setBusy(false);
    }
  };

  const errorId = (f: Field): string | undefined => (errors[f] ? `${ids[f]}-error` : undefined);
  const mark = (required: boolean): ReactElement => (
    <span className={required ? 'mark-required' : 'mark-optional'}>({required ? t('required') : t('optional')})</span>
  );
  const counts = count(uploads.items);
  return (
    <Dialog title={t('complaint')} onClose={onClose} closeLabel={t('close')} className="dialog-form">
      <form onSubmit={(e) => void submit(e)} noValidate>
        <label className="field-label" htmlFor={ids.account}>
          {t('complaintAccount')} {mark(true)}
        </label>
        <input ref={refs.account} id={ids.account} className="field" value={account} maxLength={64} required aria-invalid={Boolean(errors.account)} aria-describedby={errorId('account')} onChange={(e) => setAccount(e.target.value)} />
        {errors.account && <p className="field-error" id={errorId('account')}>{errors.account}</p>}

        <label className="field-label" htmlFor={ids.description}>
          {t('complaintDescription')} {mark(true)}
        </label>
        <textarea ref={refs.description} id={ids.description} className="field" rows={4} maxLength={2000} required value={description} aria-invalid={Boolean(errors.description)} aria-describedby={errorId('description')} onChange={(e) => setDescription(e.target.value)} />
        {errors.description && <p className="field-error" id={errorId('description')}>{errors.description}</p>}

        <label className="field-label" htmlFor={ids.time}>
          {t('complaintTime')} {mark(true)}
        </label>
        <input ref={refs.time} id={ids.time} className="field" type="datetime-local" required value={time} aria-invalid={Boolean(errors.time)} aria-describedby={errorId('time')} onChange={(e) => setTime(e.target.value)} />
        {errors.time && <p className="field-error" id={errorId('time')}>{errors.time}</p>}

        <label className="field-label" htmlFor={ids.images}>
          {t('complaintImages', { max: maxImages })} {mark(false)} <span className="muted">{counts.images}/{maxImages}</span>
        </label>
        <input id={ids.images} className="field-file" type="file" accept="image/*" multiple disabled={counts.images >= maxImages} onChange={(e) => { addFiles(e.currentTarget.files, 'image'); e.currentTarget.value = ''; }} />

        <label className="field-label" htmlFor={ids.video}>
          {t('complaintVideo', { max: maxVideos })} {mark(false)} <span className="muted">{counts.videos}/{maxVideos}</span>
        </label>
        <input id={ids.video} className="field-file" type="file" accept="video/*" disabled={counts.videos >= maxVideos} onChange={(e) => { addFiles(e.currentTarget.files, 'video'); e.currentTarget.value = ''; }} />

        <UploadTray items={uploads.items} onRetry={(id) => void uploads.retry(id)} onRemove={(id) => uploads.cancel(id)} />
        <FormActions onCancel={onClose} busy={busy} cancelLabel={t('cancel')} submitLabel={t('submit')} />
      </form>
    </Dialog>
  );
}
