/**
 * The end of a conversation in the list (issue 10): a divider row after the last message of each
 * conversation that ended while the page was open, and at the end of the list while the current
 * one is ended (also after a reload, from the restored session state).
 * @module
 */
import { MessageType, type StoredMessage } from '@kefu-im/sdk';
import { isChatType } from '@kefu-im/sdk/format';
import { useI18n } from '@kefu-im/react';
import type { ReactElement } from 'react';

/** The fp prefix of a divider row. */
const DIVIDER = 'end-divider:';

/** A divider row placed after the message `afterFp`. */
function dividerAfter(afterFp: string): StoredMessage {
  return { type: MessageType.SessionEvent, fp: `${DIVIDER}${afterFp}`, dataContent: '' } as StoredMessage;
}

/** Whether a row is an end divider. */
export function isEndDivider(message: StoredMessage): boolean {
  return typeof message.fp === 'string' && message.fp.startsWith(DIVIDER);
}

/**
 * The rows of a conversation: its chat messages (history also holds control messages, which the
 * session bar and the suggestion chips show instead), a divider after each message in
 * `endedAfter`, and one at the end while `ended`. Never a divider first or two in a row.
 * @param messages - the loaded messages, oldest first
 * @param endedAfter - fps of messages after which a conversation ended
 * @param ended - whether the current conversation is ended
 */
export function conversationRows(messages: readonly StoredMessage[], endedAfter: ReadonlySet<string>, ended: boolean): StoredMessage[] {
  const out: StoredMessage[] = [];
  for (const m of messages) {
    if (!isChatType(m.type)) continue;
    out.push(m);
    if (typeof m.fp === 'string' && endedAfter.has(m.fp)) out.push(dividerAfter(m.fp));
  }
  const last = out[out.length - 1];
  if (ended && last && !isEndDivider(last)) out.push(dividerAfter(typeof last.fp === 'string' ? last.fp : String(out.length)));
  return out;
}

/**
 * The fp of the newest chat message, or `''`.
 * @param messages - the loaded messages, oldest first
 */
export function lastChatFp(messages: readonly StoredMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m && isChatType(m.type) && typeof m.fp === 'string' && m.fp !== '') return m.fp;
  }
  return '';
}

/** The divider shown where a conversation ended. */
export function EndDivider(): ReactElement {
  const { t } = useI18n();
  return (
    <div className="end-divider">
      <span>{t('conversationOver')}</span>
    </div>
  );
}
