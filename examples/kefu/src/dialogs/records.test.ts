import { describe, expect, it } from 'vitest';
import { APP_TEXT_TRANSLATIONS } from '../env/app-text-translations.js';
import { appTexts } from '../env/app-texts.js';
import { findMessages, matchParts } from './search-dialog.js';
import { localDateTimeMs, toLocalDateTime } from './records.js';

describe('spec §3 complaint: time of occurrence', () => {
  it('reads and writes datetime-local values in local time', () => {
    const ms = new Date(2024, 4, 1, 13, 45).getTime();
    expect(toLocalDateTime(ms)).toBe('2024-05-01T13:45');
    expect(localDateTimeMs('2024-05-01T13:45')).toBe(ms);
    expect(localDateTimeMs('yesterday')).toBeNaN();
    expect(localDateTimeMs('')).toBeNaN();
  });
});

describe('spec §2: the search box filters the loaded messages', () => {
  it('finds text messages holding the keyword, newest first, case-insensitively', () => {
    const list = [
      { type: 100, fp: 'a', dataContent: 'Deposit not arrived' },
      { type: 101, fp: 'b', dataContent: 'https://x/deposit.png' },
      { type: 200, fp: 'c', dataContent: 'Your DEPOSIT arrives soon' },
      { type: 100, fp: 'd', dataContent: 'thanks' },
    ];
    expect(findMessages(list, 'deposit').map((m) => m.fp)).toEqual(['c', 'a']);
    expect(findMessages(list, '  ')).toEqual([]);
  });
});

describe('issue 23: search marks the match and searches what is shown', () => {
  it('cuts a text around each case-insensitive occurrence of the keyword', () => {
    expect(matchParts('Deposit or deposit?', 'DEPOSIT')).toEqual([
      { text: 'Deposit', match: true },
      { text: ' or ', match: false },
      { text: 'deposit', match: true },
      { text: '?', match: false },
    ]);
    expect(matchParts('<b>x</b>', 'x')).toEqual([
      { text: '<b>', match: false },
      { text: 'x', match: true },
      { text: '</b>', match: false },
    ]);
    expect(matchParts('aaa', 'aa')).toEqual([{ text: 'aa', match: true }, { text: 'a', match: false }]);
    expect(matchParts('text', ' ')).toEqual([{ text: 'text', match: false }]);
  });

  it('finds the greeting by the text it shows in the interface language, and each message once', async () => {
    await appTexts.load('en');
    const greeting = { type: 200, robot: 1, fp: 'g', textKey: 'greeting', dataContent: '您好，我是智能客服' };
    const list = [greeting, { type: 100, fp: 'a', dataContent: 'hello there' }, { type: 100, fp: 'a', dataContent: 'hello there' }];
    expect(findMessages(list, 'hello', 'en').map((m) => m.fp)).toEqual(['a', 'g']);
    expect(APP_TEXT_TRANSLATIONS.en.robotGreeting).toMatch(/^Hello/);
    expect(findMessages(list, '智能客服', 'en')).toEqual([]);
    expect(findMessages(list, '智能客服', 'zh').map((m) => m.fp)).toEqual(['g']);
  });
});
