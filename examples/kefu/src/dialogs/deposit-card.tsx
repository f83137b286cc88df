/**
 * The deposit-information card (spec §1, §3): user account, user merchant id, merchant order
 * number, order amount and funding order status, from `validateMchOrder`.
 * @module
 */
import type { DepositCard as DepositCardData } from '@kefu-im/sdk';
import { useI18n } from '@kefu-im/react';
import type { ReactElement } from 'react';

/** Shows one deposit order. */
export function DepositCard({ card }: { card: DepositCardData }): ReactElement {
  const { t } = useI18n();
  const rows: [string, unknown][] = [
    [t('depositUserAccount'), card.userAccount],
    [t('depositUserMchId'), card.userMchId],
    [t('depositMchOrderNo'), card.mchOrderNo],
    [t('depositAmount'), card.amount],
    [t('depositStatus'), card.status],
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
