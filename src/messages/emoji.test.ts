import { describe, expect, it } from 'vitest';
import { EMOJI_NAMES, emojiIndex, emojiToken, parseEmoji } from './emoji.js';

describe('"There is a fixed list of 99 Chinese emoji names; the index of a name selects the image"', () => {
  it('has exactly 99 unique names', () => {
    expect(EMOJI_NAMES).toHaveLength(99);
    expect(new Set(EMOJI_NAMES).size).toBe(99);
  });

  it('keeps the classic order', () => {
    expect(emojiIndex('微笑')).toBe(0);
    expect(emojiIndex('撇嘴')).toBe(1);
    expect(emojiIndex('NO')).toBe(88);
    expect(emojiIndex('OK')).toBe(89);
    expect(emojiIndex('跳绳')).toBe(98);
  });

  it('gives -1 for names not in the list', () => {
    expect(emojiIndex('smile')).toBe(-1);
    expect(emojiIndex('')).toBe(-1);
    expect(emojiIndex(5 as never)).toBe(-1);
  });
});

describe('"Emoji text uses a face[name] token"', () => {
  it('builds the token of a known name', () => {
    expect(emojiToken('微笑')).toBe('face[微笑]');
  });

  it('refuses an unknown name with a clear error', () => {
    expect(() => emojiToken('nope')).toThrow(/unknown emoji name "nope"/);
  });
});

describe('"Emoji replacement applies only to names in the list"', () => {
  it('turns known face[name] tokens into emoji tokens', () => {
    expect(parseEmoji('hi face[微笑]!face[OK]')).toEqual([
      { type: 'text', text: 'hi ' },
      { type: 'emoji', name: '微笑', index: 0, text: 'face[微笑]' },
      { type: 'text', text: '!' },
      { type: 'emoji', name: 'OK', index: 89, text: 'face[OK]' },
    ]);
  });

  it('leaves unknown names as text, merged with their neighbours', () => {
    expect(parseEmoji('a face[nope] b face[ok]')).toEqual([{ type: 'text', text: 'a face[nope] b face[ok]' }]);
  });

  it('finds a token inside a broken one', () => {
    expect(parseEmoji('face[face[睡]]')).toEqual([
      { type: 'text', text: 'face[' },
      { type: 'emoji', name: '睡', index: 8, text: 'face[睡]' },
      { type: 'text', text: ']' },
    ]);
  });

  it('joins back to the input and never yields empty text', () => {
    const input = 'face[微笑]face[大哭]x face[??] face[跳绳]';
    const tokens = parseEmoji(input);
    expect(tokens.map((t) => t.text).join('')).toBe(input);
    expect(tokens.every((t) => t.text !== '')).toBe(true);
    expect(parseEmoji('')).toEqual([]);
  });
});
