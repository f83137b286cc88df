/**
 * The visitor context panel beside a conversation (desk issue): name, merchant, platform,
 * language, what the visitor arrived with (entry-link parameters and the page's query), first
 * seen, earlier conversations, the deposit card of the order it arrived with, and the last rating
 * it gave (the SDK's `AgentDesk.context` store). At desk widths it stands beside the chat; on
 * narrow screens it sits above it, collapsed behind a toggle.
 * @module
 */
import { normalizeLanguage, type DepositCard as DepositCardData } from '@kefu-im/sdk';
import type { AgentDesk, VisitorContext } from '@kefu-im/sdk/agent';
import { useI18n } from '@kefu-im/react';
import { useEffect, useId, useState, useSyncExternalStore, type ReactElement } from 'react';
import { appText } from '../env/app-texts.js';
import { LANGUAGE_NAMES } from '../env/language-names.js';
import { DepositCard } from '../dialogs/deposit-card.js';
import { useWideDesk } from './desk-layout.js';
import { deskText, visitorLabel } from './desk-texts.js';

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
  /** Whether to ask the server (default true); false shows only what the desk holds (a conversation transferred away: 4003). */
  load?: boolean;
}

/** A language code with its name, when it is one of the app's. */
function languageName(code: string): string {
  const known = normalizeLanguage(code);
  return known ? `${LANGUAGE_NAMES[known]} (${code})` : code || '—';
}

/** The panel's rows: term and value. */
function contextRows(context: VisitorContext, language: string): [string, string][] {
  const when = (ms: number): string => new Date(ms).toLocaleString(language);
  const named = (name: string, id: string): string => (name && name !== id ? `${name} (${id})` : id);
  return [
    [deskText(language, 'name'), visitorLabel(context.name, context.clientId, language)],
    [deskText(language, 'merchant'), named(context.merchantName, context.mchId)],
    [deskText(language, 'platform'), named(context.platformName, context.platformId)],
    [appText(language, 'language'), languageName(context.language)],
    [deskText(language, 'firstSeen'), when(context.firstSeen)],
    [deskText(language, 'pastCount'), String(context.pastConversations)],
    [deskText(language, 'lastRating'), context.lastRating === null ? '—' : `${context.lastRating}/5`],
  ];
}

/** What the visitor arrived with, name and value, and when. */
function EntryParams({ context }: { context: VisitorContext }): ReactElement {
  const { language } = useI18n();
  const entries = Object.entries(context.entry ?? {});
  return (
    <div className="context-entry">
      <dt>{deskText(language, 'entryParams')}</dt>
      <dd>
        {entries.length === 0 ? (
          '—'
        ) : (
          <ul>
            {entries.map(([name, value]) => (
              <li key={name}>
                <span className="muted">{name}</span> {value}
              </li>
            ))}
          </ul>
        )}
        {entries.length > 0 && context.arrivedAt ? <span className="muted">{deskText(language, 'arrivedAt', { time: new Date(context.arrivedAt).toLocaleString(language) })}</span> : null}
      </dd>
    </div>
  );
}

/** The context's fields. */
function ContextBody({ context, id, hidden }: { context: VisitorContext; id: string; hidden: boolean }): ReactElement {
  const { t, language } = useI18n();
  const deposit: DepositCardData | null | undefined = context.deposit;
  return (
    <div id={id} className="context-body" hidden={hidden}>
      <dl>
        {contextRows(context, language).map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
        <EntryParams context={context} />
      </dl>
      {deposit && (
        <section className="context-deposit" aria-label={t('depositCard')}>
          <h4>{t('depositCard')}</h4>
          <DepositCard card={deposit} />
        </section>
      )}
    </div>
  );
}

/** The context of one visitor. */
export function ContextPanel({ desk, clientId, mchId, platformId, load = true }: ContextPanelProps): ReactElement | null {
  const { language } = useI18n();
  const ids = { title: useId(), body: useId() };
  const wide = useWideDesk();
  const [opened, setOpened] = useState(false);
  const state = useSyncExternalStore(desk.context.store.subscribe, desk.context.store.getSnapshot);
  useEffect(() => {
    if (load && mchId !== '') desk.context.load({ clientId, mchId, platformId }).catch(() => undefined); // the error is in the store
  }, [desk, clientId, mchId, platformId, load]);
  const context = state.byVisitor[clientId];
  if (!context) return null;
  const title = `${deskText(language, 'visitorContext')}: ${visitorLabel(context.name, clientId, language)}`;
  const shown = wide || opened;
  return (
    <aside className={wide ? 'context-panel is-beside' : 'context-panel is-above'} aria-labelledby={ids.title}>
      <h3 id={ids.title}>
        {wide ? (
          title
        ) : (
          <button type="button" className="context-toggle" aria-expanded={opened} aria-controls={ids.body} onClick={() => setOpened(!opened)}>
            {title}
          </button>
        )}
      </h3>
      <ContextBody context={context} id={ids.body} hidden={!shown} />
    </aside>
  );
}
