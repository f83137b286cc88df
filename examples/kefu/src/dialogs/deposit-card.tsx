/**
 * The deposit-information card (spec §1, §3): user account, user merchant id, merchant order
 * number, order amount and funding order status, from `validateMchOrder`.
 * @module
 */
import type { DepositCard as DepositCardData } from '@kefu-im/sdk';
import { useI18n } from '@kefu-im/react';
import type { ReactElement } from 'react';
import { appText, type AppTextKey } from '../env/app-texts.js';

/** The texts of the funding order statuses the server sends (upper case); others are shown as sent. */
const STATUS_TEXT: Readonly<Record<string, AppTextKey>> = {
  SUCCESS: 'depositStatusSuccess',
  PAID: 'depositStatusSuccess',
  COMPLETED: 'depositStatusSuccess',
  PENDING: 'depositStatusPending',
  PROCESSING: 'depositStatusPending',
  WAITING: 'depositStatusPending',
  FAILED: 'depositStatusFailed',
  FAIL: 'depositStatusFailed',
  CLOSED: 'depositStatusFailed',
};

/**
 * A funding order status in the interface language.
 * @param status - the status as sent
 * @param language - the interface language
 */
export function depositStatusText(status: unknown, language: string): string {
  if (typeof status !== 'string' && typeof status !== 'number') return '—';
  const key = STATUS_TEXT[String(status).trim().toUpperCase()];
  return key ? appText(language, key) : String(status);
}

/** Shows one deposit order. */
export function DepositCard({ card }: { card: DepositCardData }): ReactElement {
  const { t, language } = useI18n();
  const rows: [string, unknown][] = [
    [t('depositUserAccount'), card.userAccount],
    [t('depositUserMchId'), card.userMchId],
    [t('depositMchOrderNo'), card.mchOrderNo],
    [t('depositAmount'), card.amount],
    [t('depositStatus'), depositStatusText(card.status, language)],
  ];
  return (
    <dl className="deposit-card">
      {rows.map(([label, value]) => (
        <div key={label} className="deposit-row">
          <dt>{label}</dt>
          <dd>{typeof value === 'string' || typeof value === 'number' ? String(value) : '—'}</dd>
        </div>
      ))}
    </dl>
  );
}
