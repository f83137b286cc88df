/**
 * The deposit card of the order named by the page's `cpay` query, shown under the header.
 * @module
 */
import type { DepositCard as DepositCardData } from '@kefu-im/sdk';
import { useI18n, useImClient } from '@kefu-im/react';
import { useEffect, useState, type ReactElement } from 'react';
import { useChat } from '../chat/conversation.js';
import { DepositCard } from './deposit-card.js';

/** The collapsible deposit card of `orderNo` (nothing until it is loaded). */
export default function DepositPanel({ orderNo }: { orderNo: string }): ReactElement | null {
  const { t } = useI18n();
  const client = useImClient();
  const { info } = useChat();
  const [card, setCard] = useState<DepositCardData | null>(null);
  useEffect(() => {
    let live = true;
    client.api.validateMchOrder({ mchId: info.mchId, orderNo }).then(
      (c) => live && setCard(c),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [client, info.mchId, orderNo]);
  if (!card) return null;
  return (
    <details className="deposit-panel">
      <summary>
        {t('depositCard')} · {card.mchOrderNo}
      </summary>
      <DepositCard card={card} />
    </details>
  );
}
