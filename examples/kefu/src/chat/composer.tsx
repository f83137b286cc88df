/**
 * The message composer: text with the emoji picker, attachments (images, videos, files) with
 * upload progress, failed uploads with their message and a retry, the remind-people picker in
 * groups, and the transfer-to-human action in a service chat. Blank texts are refused by the
 * client with the spec's notice; Enter sends, Shift+Enter starts a new line.
 * @module
 */
import type { GroupUser } from '@kefu-im/sdk';
import type { UploadRejection } from '@kefu-im/sdk/upload';
import { useDraft, useI18n, useImClient, useSend, useSession, useUploader } from '@kefu-im/react';
import { useSlashSuggestions, type SlashSource } from '../agent/canned-suggestions.js';
import { useEffect, useRef, useState, type KeyboardEvent, type ReactElement } from 'react';
import { useChat } from './conversation.js';
import { useToast } from '../ui/toaster.js';
import { Icon } from '../ui/icons.js';
import { LazyPart, retryingLazy } from '../ui/lazy-part.js';
import { appText } from '../env/app-texts.js';

const RemindDialog = retryingLazy(() => import('../dialogs/remind-dialog.js'));
const EmojiPicker = retryingLazy(() => import('./emoji-picker.js'));
/** Loaded with the first attachment: a visitor may never send one. */
const UploadTray = retryingLazy(() => import('./upload-tray.js').then((tray) => ({ default: tray.UploadTray })));

/** What the attach button accepts (the reference server's default types). */
export const ATTACH_ACCEPT = 'image/*,video/mp4,video/webm,video/quicktime,audio/mpeg,application/pdf,application/zip,text/plain';

/**
 * Inserts `token` into `text` at the selection, replacing it.
 * @returns the new text and the caret position after the token
 */
export function insertAt(text: string, start: number, end: number, token: string): { text: string; caret: number } {
  const a = Math.max(0, Math.min(start, text.length));
  const b = Math.max(a, Math.min(end, text.length));
  return { text: text.slice(0, a) + token + text.slice(b), caret: a + token.length };
}

/**
 * Whether the visitor is writing: the focus is in a composer that holds text. A prompt that would
 * take the focus (the rating dialog) waits for the visitor instead of catching its Enter.
 * @param doc - the document to look at
 */
export function isWriting(doc: Document): boolean {
  const active = doc.activeElement;
  return active instanceof HTMLTextAreaElement && active.classList.contains('composer-input') && active.value.trim() !== '';
}

/** Props of {@link Composer}. */
export interface ComposerProps {
  /** The agent's canned replies (`/` suggestions). */
  slash?: SlashSource;
  /** Whether a dialog of the screen is open (search, rating, ...): the emoji panel closes. */
  dialogOpen?: boolean;
}

/** The composer. */
export function Composer({ slash, dialogOpen = false }: ComposerProps = {}): ReactElement {
  const { t, language } = useI18n();
  const client = useImClient();
  const { info, role, target, openDialog } = useChat();
  const status = useSession((s) => s.status);
  const { sendText, sendFile } = useSend();
  const toast = useToast();
  const [draft, setDraft] = useDraft(info.kind === 'service' ? 'service' : `group:${info.groupId ?? ''}`); // survives a reload
  const [picker, setPicker] = useState(false);
  const [remind, setRemind] = useState(false);
  const [mentions, setMentions] = useState<string[]>([]);
  const input = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const emojiToggle = useRef<HTMLButtonElement>(null);
  const group = info.kind !== 'service';
  /** An agent's typing signals name the visitor; a visitor's go to its agent. */
  const typingTo = role === 'agent' ? target.to : undefined;

  const uploads = useUploader({
    accept: ATTACH_ACCEPT,
    autoStart: true,
    onUploaded: (item, file) => {
      sendFile(file, item.kind, target);
      uploads.cancel(item.id);
    },
  });

  const send = (): void => {
    const extra = mentions.length > 0 ? { extra: { at: mentions } } : {};
    const sent = sendText(draft, { ...target, ...extra });
    if (sent) {
      setDraft('');
      setMentions([]);
      setPicker(false);
    }
    input.current?.focus();
  };
  // The emoji panel is a part of the composing, not of the page: it closes when a dialog opens
  // (search, the rating of an ended conversation) and when the conversation ends.
  const ended = status === 'ended';
  useEffect(() => {
    if (dialogOpen || ended) setPicker(false);
  }, [dialogOpen, ended]);
  const insert = (token: string): void => {
    const el = input.current;
    const { text, caret } = insertAt(draft, el?.selectionStart ?? draft.length, el?.selectionEnd ?? draft.length, token);
    setDraft(text);
    requestAnimationFrame(() => el?.setSelectionRange(caret, caret));
  };
  const suggestions = useSlashSuggestions(slash, draft, (text) => {
    setDraft(text);
    input.current?.focus();
  });
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (suggestions.onKeyDown(event)) return;
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };
  /** Tells why picked files were refused (the attach rule's types, the count limit). */
  const refused = (rejected: readonly UploadRejection[]): void => {
    for (const r of rejected) {
      if (r.reason === 'type') toast(appText(language, 'fileTypeRefused', { name: r.file.name ?? '' }), 'error');
      else if (r.reason === 'oversize') toast(`${t('fileTooLarge')}: ${r.file.name ?? ''}`, 'error');
    }
  };
  /** A part whose code could not be fetched says so (the composer itself stays usable). */
  const loadFailed = (): void => toast(t('networkError'), 'error');
  const closePicker = (): void => {
    setPicker(false);
    emojiToggle.current?.focus();
  };
  /** Escape anywhere in the composer closes the emoji panel (the panel itself returns the focus to its button). */
  const onComposerKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (event.key !== 'Escape' || !picker) return;
    event.preventDefault();
    setPicker(false);
  };
  const onRemind = (users: GroupUser[]): void => {
    setRemind(false);
    if (users.length === 0) return;
    insert(users.map((u) => `@${u.name} `).join(''));
    setMentions((ids) => [...new Set([...ids, ...users.map((u) => u.clientId)])]);
  };

  return (
    <div className="composer" onKeyDown={onComposerKeyDown}>
      {uploads.items.length > 0 && (
        <LazyPart onFailure={loadFailed}>
          <UploadTray items={uploads.items} onRetry={(id) => void uploads.retry(id)} onRemove={(id) => uploads.cancel(id)} />
        </LazyPart>
      )}
      {picker && (
        <LazyPart
          onFailure={() => {
            closePicker();
            loadFailed();
          }}
        >
          <EmojiPicker label={t('emoji')} language={language} onPick={insert} onClose={closePicker} />
        </LazyPart>
      )}
      {suggestions.list}
      {/* The text comes first in the tab order; the tools follow it (and sit under it). */}
      <div className="composer-row">
        <textarea
          ref={input}
          className="composer-input"
          rows={1}
          value={draft}
          aria-label={t('inputPlaceholder')}
          placeholder={status === 'ended' && !group && role === 'visitor' ? appText(language, 'newConversationHint') : t('inputPlaceholder')}
          maxLength={5000}
          onChange={(e) => {
            setDraft(e.target.value);
            // typing signals go to the other party of a service conversation (the SDK throttles them)
            if (!group) client.typing.input(e.target.value, typingTo);
          }}
          onBlur={() => client.typing.blur(typingTo)}
          onKeyDown={onKeyDown}
          {...suggestions.inputProps}
        />
        <button type="button" className="send-btn" onClick={send}>
          {t('send')}
        </button>
      </div>
      <div className="composer-tools">
        <button ref={emojiToggle} type="button" className="tool-btn" aria-label={t('emoji')} aria-expanded={picker} onClick={() => setPicker((v) => !v)}>
          <Icon name="smile" />
        </button>
        <button type="button" className="tool-btn" aria-label={t('file')} onClick={() => fileInput.current?.click()}>
          <Icon name="attach" />
        </button>
        <input
          ref={fileInput}
          type="file"
          className="visually-hidden"
          tabIndex={-1}
          aria-hidden="true"
          multiple
          accept={ATTACH_ACCEPT}
          onChange={(e) => {
            const files = e.currentTarget.files;
            if (files && files.length > 0) refused(uploads.add(Array.from(files)).rejected);
            e.currentTarget.value = '';
          }}
        />
        {group && (
          <button type="button" className="tool-btn" aria-label={t('remindPeople')} onClick={() => setRemind(true)}>
            <Icon name="at" />
          </button>
        )}
        {role === 'visitor' && !group && status === 'robot' && (
          <button type="button" className="chip-btn" onClick={() => openDialog('transfer')}>
            {t('transferToHuman')}
          </button>
        )}
      </div>
      {remind && info.groupId && (
        <LazyPart
          onFailure={() => {
            setRemind(false);
            loadFailed();
          }}
        >
          <RemindDialog groupId={info.groupId} onPick={onRemind} onClose={() => setRemind(false)} />
        </LazyPart>
      )}
    </div>
  );
}
