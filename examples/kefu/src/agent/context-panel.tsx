/**
 * The visitor context panel beside a conversation: name, merchant, platform, language, first
 * seen, earlier conversations and the last rating (the SDK's `AgentDesk.context` store).
 * @module
 */
import type { AgentDesk } from '@kefu-im/sdk/agent';
import { useI18n } from '@kefu-im/react';
import { useEffect, useId, useSyncExternalStore, type ReactElement } from 'react';
import { deskText } from './desk-texts.js';

/** Props of {@link ContextPanel}. */
export interface ContextPanelProps {
  /** The agent's desk. */
  desk: AgentDesk;
  /** The visitor. */
  clientId: string;
  /** The conversation's merchant ('' shows nothing). */
  mchId: string;
  /** The conversation's platform. */
  platformId: string;
}

/** The context of one visitor. */
export function ContextPanel({ desk, clientId, mchId, platformId }: ContextPanelProps): ReactElement | null {
  const { language } = useI18n();
  const titleId = useId();
  const state = useSyncExternalStore(desk.context.store.subscribe, desk.context.store.getSnapshot);
  useEffect(() => {
    if (mchId !== '') desk.context.load({ clientId, mchId, platformId }).catch(() => undefined); // the error is in the store
  }, [desk, clientId, mchId, platformId]);
  const context = state.byVisitor[clientId];
  if (!context) return null;
  const rows: [string, string][] = [
    [deskText(language, 'merchant'), `${context.merchantName || context.mchId} · ${context.platformName || context.platformId}`],
    [deskText(language, 'firstSeen'), new Date(context.firstSeen).toLocaleString(language)],
    [deskText(language, 'pastCount'), String(context.pastConversations)],
    [deskText(language, 'lastRating'), context.lastRating === null ? '—' : `${context.lastRating}/5`],
  ];
  return (
    <aside className="context-panel" aria-labelledby={titleId}>
      <h3 id={titleId}>
        {deskText(language, 'visitorContext')}: {context.name} <span className="muted">({context.language})</span>
      </h3>
      <dl>
        {rows.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </aside>
  );
}
