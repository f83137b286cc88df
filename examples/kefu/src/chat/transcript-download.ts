/**
 * The chat menu's "download transcript" (loaded when it is picked): the whole history is paged in
 * through the client (the visitor's own history calls, bound to it, protocol §3a), written as plain
 * text ({@link transcriptText}) into a Blob and handed to the browser as a download with a safe
 * file name. Nothing of it becomes HTML.
 * @module
 */
import type { I18nKey, ImClient } from '@kefu-im/sdk';
import { appText } from '../env/app-texts.js';
import { transcriptFileName, transcriptText, type TranscriptOptions } from './transcript.js';

/** History pages asked at the most (100 messages each): a transcript of up to 10 000 messages. */
export const MAX_TRANSCRIPT_PAGES = 100;

/** What {@link downloadTranscript} needs besides the client. */
export interface TranscriptDownload extends Omit<TranscriptOptions, 'now'> {
  /** The conversation's title (the heading is in the labels; the file name is made from it). */
  title: string;
  /** The page's document (where the download link is clicked). */
  document: Document;
  /** The object URL functions (`window.URL`). */
  urls: Pick<typeof URL, 'createObjectURL' | 'revokeObjectURL'>;
  /** The clock (ms). */
  now: () => number;
}

/**
 * Pages the rest of the history in, then downloads the transcript.
 * @returns the file name and how many messages the list held
 * @throws the history call's error (the caller says the download failed)
 */
export async function downloadTranscript(client: Pick<ImClient, 'history' | 'loadOlder' | 'messages'>, options: TranscriptDownload): Promise<{ fileName: string; messages: number }> {
  for (let page = 0; page < MAX_TRANSCRIPT_PAGES && client.history.getSnapshot().hasMore; page += 1) {
    const loaded = await client.loadOlder(100);
    if (loaded.hasMore !== true) break;
  }
  const messages = client.messages.getSnapshot();
  const now = options.now();
  const text = transcriptText(messages, { ...options, now });
  const fileName = transcriptFileName(options.title, now);
  // a BOM, so that editors that guess (Windows Notepad) read the UTF-8 text as UTF-8
  const blob = new Blob(['\ufeff', text], { type: 'text/plain;charset=utf-8' });
  const url = options.urls.createObjectURL(blob);
  const link = options.document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.hidden = true;
  options.document.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    // the browser has taken the URL once the click returned; give it a moment before freeing it
    setTimeout(() => options.urls.revokeObjectURL(url), 10_000);
  }
  return { fileName, messages: messages.length };
}

/**
 * The chat menu's action: the transcript of this page's conversation, with the labels in the
 * visitor's language and its own messages told by its client id or the welcome's user id.
 * @param client - the visitor's client
 * @param title - the conversation's title
 * @param language - the interface language
 * @param userId - the user id of the welcome, if any
 * @param t - the SDK's texts
 * @throws the history call's error (the caller says the download failed)
 */
export async function saveTranscript(
  client: Pick<ImClient, 'history' | 'loadOlder' | 'messages' | 'clock' | 'clientId'>,
  title: string,
  language: string,
  userId: string | undefined,
  t: (key: I18nKey) => string,
): Promise<void> {
  await downloadTranscript(client, {
    title,
    language,
    document,
    urls: URL,
    now: () => client.clock.now(),
    isMine: (m) => m.from === client.clientId || (userId !== undefined && m.from === userId),
    labels: {
      heading: appText(language, 'transcriptTitle', { title }),
      exported: (time) => appText(language, 'transcriptExported', { time }),
      empty: appText(language, 'transcriptEmpty'),
      you: appText(language, 'you'),
      robot: t('robot'),
      agent: t('agent'),
      image: t('image'),
      file: t('file'),
      video: t('video'),
    },
  });
}
