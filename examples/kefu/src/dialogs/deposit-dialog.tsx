/**
 * Look up a deposit order by its merchant order number and show its deposit card.
 * @module
 */
import type { DepositCard as DepositCardData } from '@kefu-im/sdk';
import { useI18n, useImClient } from '@kefu-im/react';
import { useId, useState, type FormEvent, type ReactElement } from 'react';
import { useChat } from '../chat/conversation.js';
import { Dialog } from '../ui/dialog.js';
import { DepositCard } from './deposit-card.js';
import type { ChatDialogProps } from './types.js';

/** The deposit lookup dialog. */
export default function DepositDialog({ onClose }: ChatDialogProps): ReactElement {
  const { t } = useI18n();
  const client = useImClient();
  const { info } = useChat();
  const [orderNo, setOrderNo] = useState(info.query.cpay ?? '');
  const [card, setCard] = useState<DepositCardData | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();
  const lookUp = (event: FormEvent): void => {
    event.preventDefault();
    if (orderNo.trim() === '' || busy) return;
    setBusy(true);
    client.api
      .validateMchOrder({ mchId: info.mchId, orderNo: orderNo.trim() })
      .then(setCard, () => setCard(null))
      .finally(() => setBusy(false));
  };
  return (
    <Dialog title={t('depositCard')} onClose={onClose} closeLabel={t('close')} className="dialog-form">
      <form className="inline-form" onSubmit={lookUp}>
        <label className="field-label" htmlFor={id}>
          {t('depositMchOrderNo')} <span className="mark-required">({t('required')})</span>
        </label>
        <div className="inline-row">
          <input id={id} className="field" data-autofocus value={orderNo} maxLength={64} required onChange={(e) => setOrderNo(e.target.value)} />
          {/* Not disabled while busy: a disabled button would drop the focus out of the dialog. */}
          <button type="submit" className="btn btn-primary" aria-disabled={busy}>
            {t('searchPlaceholder')}
          </button>
        </div>
      </form>
      <div aria-live="polite">{card && <DepositCard card={card} />}</div>
    </Dialog>
  );
}
