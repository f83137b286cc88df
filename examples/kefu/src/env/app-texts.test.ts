import { SUPPORTED_LANGUAGES } from '@kefu-im/sdk';
import { describe, expect, it } from 'vitest';
import { appText } from './app-texts.js';

describe('spec §1: the interface texts exist in all ten languages', () => {
  it('has every app text in every supported language, zh for anything else', () => {
    for (const language of SUPPORTED_LANGUAGES) {
      expect(appText(language, 'more')).not.toBe('');
      expect(appText(language, 'messages')).not.toBe('');
      expect(appText(language, 'openApp')).not.toBe('');
      expect(appText(language, 'language')).not.toBe('');
    }
    expect(appText('en', 'more')).toBe('More');
    expect(appText('xx', 'more')).toBe(appText('zh', 'more'));
  });
});
