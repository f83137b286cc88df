/**
 * What a chat screen knows about its conversation (from the entry link or the group route), and
 * the actions shared by its parts (dialogs, asking a suggested question).
 * @module
 */
import { createContext, useContext } from 'react';
import type { StoredMessage } from '@kefu-im/sdk';
import type { EntryQuery } from '../env/entry.js';

/** A service conversation, a group chat or a channel. */
export type ConversationKind = 'service' | 'group' | 'channel';

/** The conversation shown by a chat screen. */
export interface ConversationInfo {
  /** Service chat, group or channel. */
  kind: ConversationKind;
  /** Merchant id. */
  mchId: string | number;
  /** Platform id. */
  platformId: string | number;
  /** The agent named by the entry link, or `''`. */
  kefuId: string | number;
  /** The group or channel id, for groups. */
  groupId: string | null;
  /** The heading: the group's or the merchant's name (may be empty until known). */
  title: string;
  /** A group's notice. */
  notice: string;
  /** The query of the page address. */
  query: EntryQuery;
}

/** The dialogs a chat screen can open. */
export type DialogName = 'transfer' | 'rating' | 'complaint' | 'leave' | 'deposit' | 'search' | 'preview' | 'faq' | 'end' | 'language';

/** Where the composer sends: the recipient and the group flag. */
export interface SendTarget {
  /** Recipient (a group id, a visitor's client id for an agent); default: the server routes it. */
  to?: string;
  /** True for a group message. */
  isGroup?: boolean;
}

/** Shared actions of a chat screen. */
export interface ChatActions {
  /** The conversation. */
  info: ConversationInfo;
  /** Who uses the screen: a visitor, or an agent answering one. */
  role: 'visitor' | 'agent';
  /** Where the composer sends. */
  target: SendTarget;
  /** Opens a dialog (`data` e.g. the image URL of `preview`). */
  openDialog(name: DialogName, data?: string): void;
  /** Asks a suggested question (the robot answers in the chat). */
  ask(questionId: string | number): void;
  /** Shows the message with this fp in the list. */
  reveal(fp: string): void;
  /** The list's scroll container (the read-on-scroll root). */
  scrollRoot: HTMLElement | null;
  /** The name shown above a message of the other side, when not its `fn` (the desk: a visitor's default name in the desk's language). */
  senderName?: (message: StoredMessage) => string | undefined;
}

/** The chat screen's shared actions. */
export const ChatContext = createContext<ChatActions | null>(null);

/** The chat screen's shared actions. @throws Error outside a chat screen */
export function useChat(): ChatActions {
  const value = useContext(ChatContext);
  if (!value) throw new Error('useChat: no chat screen above this component');
  return value;
}
