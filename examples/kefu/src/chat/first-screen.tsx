/**
 * The stored first screen in the chat (see `runtime/first-screen.ts`): its rows shown until the
 * first history page replaces them, and the keeper that writes the newest messages back for the
 * next visit (and forgets them when the visitor's identity changes).
 * @module
 */
import type { ImClient, MessagePage, PublicConfig, StoredMessage } from '@kefu-im/sdk';
import { useConnection, useImClient, useImEvent, useMessages } from '@kefu-im/react';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import {
  dropPrimedFirstScreen,
  firstScreenOf,
  firstScreenShown,
  forgetFirstScreen,
  pageStorage,
  primedFirstScreen,
  writeFirstScreen,
  type FirstScreenStorage,
} from '../runtime/first-screen.js';
import type { ConversationInfo } from './conversation.js';

/** How long after the last change of the list the first screen is written, ms. */
export const KEEP_DELAY = 1_000;

/**
 * The rows of the stored first screen, until the first history page has been handled (then null,
 * and the list's own messages show: the same rows, keyed by fp, so none is duplicated and the view
 * does not move). The first page is asked for here once the client connects: the list asks only
 * while it shows no row.
 * @param client - the conversation's client
 * @param loadOlder - the paging store's `loadOlder` (resolves null on failure, never rejects)
 */
export function useFirstScreenRows(client: ImClient, loadOlder: () => Promise<MessagePage | null>): readonly StoredMessage[] | null {
  const [rows, setRows] = useState(() => primedFirstScreen(client)?.messages ?? null);
  // Asked once the client connects (the page connects once the conversation is prepared): the
  // call then waits for the welcome, as the list's own first call does.
  const connecting = useConnection((c) => c.state !== 'closed');
  // after the paint of the stored rows (an effect runs once they are on screen)
  useEffect(() => firstScreenShown(client), [client]);
  useEffect(() => {
    if (!connecting || !primedFirstScreen(client)) return undefined;
    let live = true;
    void loadOlder().then(() => {
      dropPrimedFirstScreen(client);
      if (live) setRows(null);
    });
    return () => {
      live = false;
    };
  }, [client, loadOlder, connecting]);
  return rows;
}

/** Props of {@link FirstScreenKeeper}. */
export interface FirstScreenKeeperProps {
  /** The conversation's facts. */
  info: ConversationInfo;
  /** The server's public configuration. */
  config: PublicConfig;
  /** The page address (path and query) the screen belongs to. */
  page: string;
  /** The storage (the page's localStorage by default). */
  storage?: FirstScreenStorage | null;
}

/**
 * Keeps the newest messages of the conversation for the next visit: written a moment after the
 * list changes and when the page is left; forgotten when the visitor's identity changes. The
 * client id and the messages are read from the client at the moment of writing (an identity
 * switch clears the list before it changes the id, so no visitor's messages are ever written
 * under another's id).
 */
export function FirstScreenKeeper({ info, config, page, storage = pageStorage() }: FirstScreenKeeperProps): null {
  const client = useImClient();
  const { messages } = useMessages();
  const write = useRef<() => void>(() => undefined);
  write.current = () => {
    if (!storage) return;
    const screen = firstScreenOf(client.clientId, page, config, info, client.messages.getSnapshot());
    if (screen) writeFirstScreen(storage, screen);
  };
  useEffect(() => {
    const timer = setTimeout(() => write.current(), KEEP_DELAY);
    return () => clearTimeout(timer);
  }, [messages]);
  // before the first paint: a page left as soon as its rows show (a first visit's chat renders
  // with them) still keeps them for the next visit
  useLayoutEffect(() => {
    const onHide = (): void => write.current();
    window.addEventListener('pagehide', onHide);
    return () => window.removeEventListener('pagehide', onHide);
  }, []);
  useImEvent('identity', () => {
    dropPrimedFirstScreen(client);
    forgetFirstScreen(storage);
  });
  return null;
}
