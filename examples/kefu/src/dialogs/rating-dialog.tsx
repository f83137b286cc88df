/**
 * The rating dialog (spec §4, §5, §6): five levels from very satisfied to very dissatisfied, a
 * level must be chosen ("Please rate this service"), an optional remark. The server accepts one
 * rating per conversation and refuses blacklisted visitors; its message is shown as a toast.
 * @module
 */
import { ApiError, ImError, type I18nKey } from '@kefu-im/sdk';
import { ApiErrorCode } from '@kefu-im/sdk/codes';
import { useI18n, useImClient } from '@kefu-im/react';
import { useId, useState, type FormEvent, type ReactElement } from 'react';
import { Dialog, FormActions } from '../ui/dialog.js';
import { useToast } from '../ui/toaster.js';
import type { ChatDialogProps } from './types.js';

/** The five levels, best first, with their scores. */
export const RATING_LEVELS: readonly { score: number; key: I18nKey }[] = [
  { score: 5, key: 'rateVerySatisfied' },
  { score: 4, key: 'rateSatisfied' },
  { score: 3, key: 'rateAverage' },
  { score: 2, key: 'rateDissatisfied' },
  { score: 1, key: 'rateVeryDissatisfied' },
];

/** Server codes after which rating again is pointless (blacklisted, already rated). */
const FINAL_CODES: ReadonlySet<number> = new Set([ApiErrorCode.Blacklisted, ApiErrorCode.AlreadyRated]);

/** The rating dialog. */
export default function RatingDialog({ onClose, onDone }: ChatDialogProps): ReactElement {
  const { t } = useI18n();
  const client = useImClient();
  const toast = useToast();
  const [score, setScore] = useState(0);
  const [remark, setRemark] = useState('');
  const [busy, setBusy] = useState(false);
  const groupLabel = useId();
  const remarkId = useId();

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    client.rate(score, remark.trim() || undefined).then(
      () => {
        toast(t('rateThanks'));
        onDone?.();
        onClose();
      },
      (error: unknown) => {
        setBusy(false);
        // The client has shown its notice (rate required, or the server's message).
        if (error instanceof ApiError && FINAL_CODES.has(error.code)) onClose();
        else if (!(error instanceof ImError) && !(error instanceof ApiError)) toast(t('rateFailed'), 'error');
      },
    );
  };

  return (
    <Dialog title={t('rateTitle')} onClose={onClose} closeLabel={t('close')}>
      <form onSubmit={submit} noValidate>
        <fieldset className="rating" aria-describedby={groupLabel}>
          <legend id={groupLabel}>
            {t('rateRequired')} <span className="mark-required">({t('required')})</span>
          </legend>
          {RATING_LEVELS.map((level) => (
            <label key={level.score} className={score === level.score ? 'rating-option is-chosen' : 'rating-option'}>
              <input type="radio" name="score" value={level.score} checked={score === level.score} onChange={() => setScore(level.score)} />
              <span>{t(level.key)}</span>
            </label>
          ))}
        </fieldset>
        <label className="field-label" htmlFor={remarkId}>
          {t('rateRemarkPlaceholder')}
        </label>
        <textarea id={remarkId} className="field" rows={3} maxLength={500} value={remark} onChange={(e) => setRemark(e.target.value)} />
        <FormActions onCancel={onClose} busy={busy} cancelLabel={t('cancel')} submitLabel={t('submit')} />
      </form>
    </Dialog>
  );
}
