/**
 * The visitor's transcript: the conversation as plain text (who said what, when, in the visitor's
 * language and time zone) and a safe file name for it. Pure functions: the text is only ever put
 * in a text file (a Blob), never in the page, and nothing in a message can make a line look like
 * another message (every further line of a message is indented; line and direction control
 * characters are taken out).
 * @module
 */
import { MessageType, type StoredMessage } from '@kefu-im/sdk';
import { isChatType, messageTimeMs, parseFileContent } from '@kefu-im/sdk/format';

/** The words a transcript is written with (the app's and the SDK's texts, in the visitor's language). */
export interface TranscriptLabels {
  /** The heading, `{title}` filled in. */
  heading: string;
  /** The export line, `{time}` filled in. */
  exported: (time: string) => string;
  /** Shown when there is no message. */
  empty: string;
  /** The visitor's own name. */
  you: string;
  /** The robot, when a robot message names nobody. */
  robot: string;
  /** An agent, when an agent message names nobody. */
  agent: string;
  /** Kinds of attachment. */
  image: string;
  file: string;
  video: string;
}

/** What {@link transcriptText} needs besides the messages. */
export interface TranscriptOptions {
  /** The words. */
  labels: TranscriptLabels;
  /** The visitor's language (a BCP 47 tag for the dates; an unknown one falls back to English). */
  language: string;
  /** The export time (ms). */
  now: number;
  /** The time zone of the dates (the browser's by default; tests fix it). */
  timeZone?: string;
  /** Whether the visitor sent the message. */
  isMine: (message: StoredMessage) => boolean;
}

/** Line breaks of every kind (a message's further lines are indented). */
const LINE_BREAKS = /\r\n|[\r\n\u0085\u2028\u2029\v\f]/g;
/** Control characters but tab and newline, and the bidirectional controls that could reorder what a line shows. */
const HIDDEN = /[\u0000-\u0008\u000e-\u001f\u007f-\u0084\u0086-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** `face[name]` emoji tokens of the protocol. */
const EMOJI = /face\[([^\][]{1,20})\]/g;

/** A text as one or more transcript lines: hidden characters out, line breaks normalised. */
function clean(text: string): string[] {
  return text.replace(LINE_BREAKS, '\n').replace(HIDDEN, '').split('\n');
}

/** A name on one line. */
function oneLine(text: string): string {
  return clean(text).join(' ').trim();
}

function dateFormat(language: string, timeZone: string | undefined): Intl.DateTimeFormat {
  const options: Intl.DateTimeFormatOptions = { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false, ...(timeZone ? { timeZone } : {}) };
  try {
    return new Intl.DateTimeFormat(language, options);
  } catch {
    return new Intl.DateTimeFormat('en', options);
  }
}

function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** What a message says, as text. */
function contentOf(message: StoredMessage, labels: TranscriptLabels): string {
  const text = message.dataContent ?? '';
  if (message.type === MessageType.Image) return `[${labels.image}] ${text}`;
  if (message.type === MessageType.File || message.type === MessageType.Video) {
    const file = parseFileContent(text);
    const kind = message.type === MessageType.File ? labels.file : labels.video;
    return file ? `[${kind}] ${oneLine(file.name)} (${sizeText(file.size)}) ${file.url}` : `[${kind}] ${text}`;
  }
  return text.replace(EMOJI, '[$1]');
}

/** Who sent a message. */
function senderOf(message: StoredMessage, options: TranscriptOptions): string {
  const { labels } = options;
  if (options.isMine(message)) return labels.you;
  const named = oneLine(message.fn ?? '');
  if (named !== '') return named;
  const robot = message.robot === 1 || String(message.robot) === '1';
  return robot ? labels.robot : labels.agent;
}

/**
 * The transcript: a heading, the export time, then one entry per conversation message, oldest
 * first as the list holds them (`[time] sender: text`, further lines indented by four spaces).
 * Messages that failed to send are left out; receipts, typing, suggestions and session events
 * are not conversation.
 */
export function transcriptText(messages: readonly StoredMessage[], options: TranscriptOptions): string {
  const format = dateFormat(options.language, options.timeZone);
  const { labels } = options;
  const lines = [oneLine(labels.heading), oneLine(labels.exported(format.format(options.now))), ''];
  const kept = messages.filter((m) => isChatType(m.type) && m.sendState !== 'failed');
  if (kept.length === 0) lines.push(labels.empty);
  for (const message of kept) {
    const at = messageTimeMs(message);
    const [first = '', ...rest] = clean(contentOf(message, labels));
    lines.push(`[${at === undefined ? '-' : format.format(at)}] ${senderOf(message, options)}: ${first}`);
    for (const line of rest) lines.push(`    ${line}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * A file name that every system takes: `chat-transcript-<title in ASCII letters and digits>-<local
 * date and time>.txt` (the title part is left out when nothing of it is ASCII).
 */
export function transcriptFileName(title: string, now: number): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  const d = new Date(now);
  const two = (n: number): string => String(n).padStart(2, '0');
  const stamp = `${d.getFullYear()}${two(d.getMonth() + 1)}${two(d.getDate())}-${two(d.getHours())}${two(d.getMinutes())}`;
  return `chat-transcript-${slug === '' ? '' : `${slug}-`}${stamp}.txt`;
}
