import { describe, expect, it } from 'vitest';
import { APP_TEXT_TRANSLATIONS } from '../env/app-text-translations.js';
import { appTexts, ZH_APP_TEXTS } from '../env/app-texts.js';
import { keyedText, shownText } from './text-keys.js';

describe('issue 23: the robot greeting (text key) is shown in the interface language of the moment', () => {
  it('shows the app text of a known key of a robot text, in each language', async () => {
    await appTexts.load('en');
    const greeting = { type: 200, robot: 1, textKey: 'greeting', dataContent: '您好，我是智能客服…' };
    expect(keyedText(greeting, 'zh')).toBe(ZH_APP_TEXTS.robotGreeting);
    expect(keyedText(greeting, 'en')).toBe(APP_TEXT_TRANSLATIONS.en.robotGreeting);
    expect(keyedText({ ...greeting, textKey: 'greeting-no-questions' }, 'en')).toBe(APP_TEXT_TRANSLATIONS.en.robotGreetingNoQuestions);
    expect(shownText(greeting, 'ja')).toBe(APP_TEXT_TRANSLATIONS.ja.robotGreeting);
  });

  it('leaves every other message as it was sent', () => {
    const text = 'face[微笑] hello';
    expect(shownText({ type: 200, robot: 1, textKey: 'unknown-key', dataContent: text }, 'en')).toBe(text);
    expect(shownText({ type: 200, robot: 1, textKey: 'toString', dataContent: text }, 'en')).toBe(text);
    expect(shownText({ type: 100, robot: 1, textKey: 'greeting', dataContent: text }, 'en')).toBe(text); // not a robot text
    expect(shownText({ type: 200, robot: 0, textKey: 'greeting', dataContent: text }, 'en')).toBe(text); // not the robot's
    expect(shownText({ type: 200, robot: 1, dataContent: text }, 'en')).toBe(text);
    expect(shownText({ type: 200, robot: 1, textKey: 7, dataContent: text }, 'en')).toBe(text);
  });
});
