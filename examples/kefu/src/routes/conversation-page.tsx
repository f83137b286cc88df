/**
 * `/kefu/{id?}` and `/group/{id?}/{name?}` (spec §2): prepares the conversation's client from the
 * entry link (or the group route), then provides it to the chat screen, which connects.
 * @module
 */
import { ImProvider, useMerchantInfo } from '@kefu-im/react';
import { useEffect, useMemo, useState, type ReactElement } from 'react';
import { useSearch } from 'wouter';
import { ChatScreen } from '../chat/chat-screen.js';
import type { ConversationInfo } from '../chat/conversation.js';
import { FirstScreenKeeper } from '../chat/first-screen.js';
import { readEntryQuery } from '../env/entry.js';
import { faviconFor } from '../env/favicon.js';
import { useAttention } from '../ui/attention.js';
import { useAppTexts, useRuntime } from '../runtime/context.js';
import { dropPrimedFirstScreen, forgetFirstScreen, pageStorage, primedFirstScreen } from '../runtime/first-screen.js';
import { conversationKey, PlatformDisabledError, preparedConversation, preparedInfo, type ConversationSpec } from '../runtime/prepare.js';
import { StatusPage } from './status-page.js';

/** Keeps the page icon on the merchant's kefuAvatar2 (or the default), dotted while messages are unread. */
function MerchantFavicon(): null {
  useAttention(faviconFor(useMerchantInfo()));
  return null;
}

/** The merchant's name as the heading of a service chat. */
function ServiceChat({ info }: { info: ConversationInfo }): ReactElement {
  const merchant = useMerchantInfo();
  const name = merchant?.['name'];
  const withTitle = useMemo(() => (info.title === '' && typeof name === 'string' ? { ...info, title: name } : info), [info, name]);
  return <ChatScreen info={withTitle} />;
}

/** A loading placeholder. */
export function Loading(): ReactElement {
  const { t } = useAppTexts();
  return (
    <main className="status-page" aria-busy="true">
      <p>{t('connecting')}</p>
    </main>
  );
}

/** The conversation page of a route. */
export function ConversationPage({ spec }: { spec: ConversationSpec }): ReactElement {
  const runtime = useRuntime();
  const key = conversationKey(spec);
  const client = useMemo(() => runtime.acquire(key), [runtime, key]);
  const search = useSearch();
  // The page address the stored first screen belongs to (as the boot read it).
  const [page] = useState(() => `${window.location.pathname}${window.location.search}`);
  // A conversation prepared already (a first visit's chat mounts after its first history page)
  // shows at once; a returning visitor's stored first screen too (the boot handed it over), and
  // the preparation's own facts replace its facts when they come.
  const [state, setState] = useState<{ info: ConversationInfo; prepared: boolean } | { broken: 'link' | 'platform' } | null>(() => {
    const info = preparedInfo(client);
    if (info) return { info, prepared: true };
    const stored = primedFirstScreen(client);
    return stored ? { info: { ...stored.info, query: readEntryQuery(search ? `?${search}` : '') }, prepared: false } : null;
  });

  useEffect(() => {
    runtime.retain(key);
    return () => runtime.release(key);
  }, [runtime, key]);

  useEffect(() => {
    let live = true;
    preparedConversation(client, runtime, spec, search ? `?${search}` : '').then(
      // (the same facts as the state holds already: no render)
      (info) => live && setState((now) => (now && 'info' in now && now.prepared && now.info === info ? now : { info, prepared: true })),
      (error: unknown) => {
        dropPrimedFirstScreen(client);
        forgetFirstScreen(pageStorage());
        if (live) setState({ broken: error instanceof PlatformDisabledError ? 'platform' : 'link' });
      },
    );
    return () => {
      live = false;
    };
    // Prepared once per client: the route remounts the page for another conversation.
  }, [client]);

  if (!state) return <Loading />;
  if ('broken' in state) return <StatusPage code={state.broken} />;
  return (
    // Connected once prepared (the connect data is set then): the stored first screen shows before.
    <ImProvider client={client} autoStart={state.prepared} autoConnect={state.prepared}>
      <MerchantFavicon />
      {state.prepared && <FirstScreenKeeper info={state.info} config={runtime.config} page={page} />}
      {state.info.kind === 'service' ? <ServiceChat info={state.info} /> : <ChatScreen info={state.info} />}
    </ImProvider>
  );
}
