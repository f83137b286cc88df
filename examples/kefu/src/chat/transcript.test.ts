import { MessageType, type StoredMessage } from '@kefu-im/sdk';
import { describe, expect, it } from 'vitest';
import { transcriptFileName, transcriptText, type TranscriptLabels } from './transcript.js';

const LABELS: TranscriptLabels = {
  heading: 'Chat transcript: Demo Shop',
  exported: (time) => `Exported: ${time}`,
  empty: '(no messages yet)',
  you: 'You',
  robot: 'Bot',
  agent: 'Agent',
  image: 'Image',
  file: 'File',
  video: 'Video',
};
const T0 = Date.UTC(2026, 10, 27, 1, 2, 3); // 09:02:03 in Shanghai

const msg = (fp: string, overrides: Partial<StoredMessage>): StoredMessage => ({ type: MessageType.Text, fp, from: 'v1', createTime: T0, ...overrides }) as StoredMessage;
const options = (language = 'en', timeZone = 'Asia/Shanghai') => ({ labels: LABELS, language, timeZone, now: T0 + 60_000, isMine: (m: StoredMessage) => m.from === 'v1' });

describe('issue 22: the transcript says who said what and when, as plain text', () => {
  it('one line per message with the time in the visitor\'s language and time zone; attachments by kind, name, size and link', () => {
    const text = transcriptText(
      [
        msg('a', { dataContent: 'hello face[微笑]' }),
        msg('b', { type: MessageType.RobotText, from: 'robot', robot: 1, dataContent: 'How can I help?', createTime: T0 + 1000 }),
        msg('c', { from: 'agent:alice', fn: 'Alice', dataContent: 'I am here', createTime: T0 + 2000 }),
        msg('d', { type: MessageType.Image, dataContent: 'https://chat.example/files/x.png', createTime: T0 + 3000 }),
        msg('e', { type: MessageType.File, dataContent: JSON.stringify({ name: 'notes.pdf', size: 3000, url: 'https://chat.example/files/n.pdf', mime: 'application/pdf' }), createTime: T0 + 4000 }),
        msg('f', { type: MessageType.Video, from: 'agent:alice', fn: '', dataContent: JSON.stringify({ name: 'clip.mp4', size: 2_500_000, url: '/files/c.mp4' }), createTime: T0 + 5000 }),
      ],
      options(),
    );
    expect(text).toBe(
      [
        'Chat transcript: Demo Shop',
        'Exported: 11/27/2026, 09:03:03',
        '',
        '[11/27/2026, 09:02:03] You: hello [微笑]',
        '[11/27/2026, 09:02:04] Bot: How can I help?',
        '[11/27/2026, 09:02:05] Alice: I am here',
        '[11/27/2026, 09:02:06] You: [Image] https://chat.example/files/x.png',
        '[11/27/2026, 09:02:07] You: [File] notes.pdf (2.9 KB) https://chat.example/files/n.pdf',
        '[11/27/2026, 09:02:08] Agent: [Video] clip.mp4 (2.4 MB) /files/c.mp4',
        '',
      ].join('\n'),
    );
  });

  it('writes dates the visitor\'s way (zh) and in its time zone', () => {
    const text = transcriptText([msg('a', { dataContent: '你好' })], { ...options('zh', 'UTC'), labels: { ...LABELS, you: '我' } });
    expect(text.split('\n')[3]).toBe('[2026/11/27 01:02:03] 我: 你好');
  });

  it('no message text can pass for another message: further lines are indented, line and direction controls go', () => {
    const forged = 'fine\r\n[11/27/2026, 09:00:00] Alice: send your password\u2028second\u202eevil\u0007';
    const lines = transcriptText([msg('a', { dataContent: forged, fn: 'x' }), msg('b', { from: 'agent:x', fn: 'Eve\n[00:00] You', dataContent: 'hi' })], options()).split('\n');
    expect(lines.slice(3)).toEqual([
      '[11/27/2026, 09:02:03] You: fine',
      '    [11/27/2026, 09:00:00] Alice: send your password',
      '    secondevil',
      '[11/27/2026, 09:02:03] Eve [00:00] You: hi',
      '',
    ]);
  });

  it('leaves out what is not conversation and what failed to send; says when there is nothing', () => {
    const text = transcriptText(
      [
        msg('r', { type: MessageType.Receipt, dataContent: 'a' }),
        msg('s', { type: MessageType.SessionEvent, dataContent: '{"event":"created"}' }),
        msg('q', { type: MessageType.Suggestions, dataContent: '[]' }),
        msg('x', { dataContent: 'not sent', sendState: 'failed' }),
      ],
      options(),
    );
    expect(text.split('\n').slice(2)).toEqual(['', '(no messages yet)', '']);
  });

  it('falls back to English dates for a language tag Intl does not take', () => {
    expect(transcriptText([msg('a', { dataContent: 'x' })], options('not a tag!', 'UTC')).split('\n')[3]).toBe('[11/27/2026, 01:02:03] You: x');
  });
});

describe('issue 22: the transcript\'s file name is safe everywhere', () => {
  it('ASCII letters and digits of the title, the local date and time, .txt', () => {
    const at = new Date(2026, 10, 27, 9, 5).getTime();
    expect(transcriptFileName('示例商城 Demo Shop', at)).toBe('chat-transcript-Demo-Shop-20261127-0905.txt');
    expect(transcriptFileName('../../etc/passwd\u0000 <x>', at)).toBe('chat-transcript-etc-passwd-x-20261127-0905.txt');
    expect(transcriptFileName('在线客服', at)).toBe('chat-transcript-20261127-0905.txt');
    expect(transcriptFileName('Café Ünïcode'.repeat(10), at)).toMatch(/^chat-transcript-[A-Za-z0-9-]{1,40}-20261127-0905\.txt$/);
  });
});
